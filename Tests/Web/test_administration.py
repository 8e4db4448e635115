"""Administration in the web client (issue 30, PROTOCOL.md §10): only administrators see it; an administrator
deactivates someone whose open page is signed out with the reason, changes roles (the last administrator is refused
with the server's reason), hands out a password reset link that sets a password, and makes an invitation whose link
registers someone on a server that admits people by invitation only; the rooms and the audit log."""

import unittest

from harness import PASSWORD, ApiError, api, unique_name
from webcase import WebClientTestCase
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)

DEACTIVATED_NOTICE = "You were signed out: an administrator deactivated your account."
LAST_ADMINISTRATOR = "This is the last active administrator: make someone else one first."


class AdministrationTests(WebClientTestCase):
    def test_gh30_a_member_sees_no_administration(self):
        ann = self.user("ann")
        page = self.signed_in(ann)
        page.go("#/me")
        page.wait_for(lambda d: page.find("#me-data-link").is_displayed(), "My data under Me")
        self.assertFalse(page.find("#me-admin-link").is_displayed(), "Administration is hidden from a member")
        page.go("#/me/admin/users")
        page.wait_for(lambda d: page.find("#admin-users-status").text == "Only administrators can see this.",
                      "the server's refusal, said for this page")

    def test_gh30_deactivating_signs_the_open_page_out_with_the_reason_and_roles_change(self):
        # setup
        root = self.admin("root", "Root Admin")
        bob = self.user("bob", "Bob Chen")
        bob_name = bob["user"]["username"]
        bob_page = self.signed_in(bob)
        bob_page.wait_for(lambda d: bob_page.find(".topbar .status-light").get_attribute("data-state") == "online", "Bob connected")
        page = self.signed_in(root)
        page.go("#/me")
        page.wait_for(lambda d: page.find("#me-admin-link").is_displayed(), "Administration under Me")
        page.find("#me-admin-link").click()
        page.wait_for(lambda d: page.find("#topbar-title").text == "Administration", "the Administration page")
        self.assertEqual(page.find("#registration-mode").text, "Open")
        self.assertIn("--registration", page.find("#registration-note").text)

        # act: deactivate Bob
        page.find("#admin-users-link").click()
        page.wait_for(lambda d: page.find("#topbar-title").text == "Users", "the Users page")
        self.open_user_page(page, bob_name)
        page.find("#user-active-toggle").click()

        # validate: Bob's open page is signed out, with the reason; signing in again is refused
        page.wait_for(lambda d: page.find("#admin-user-status").text == "Bob Chen is deactivated and signed out everywhere.",
                      "the administrator's confirmation")
        self.assertIn("Deactivated", page.find("#admin-user-name").text)
        self.assertEqual(page.find("#user-active-toggle").text, "Reactivate")
        bob_page.wait_for(lambda d: bob_page.find_all("#auth-notice"), "Bob signed out")
        self.assertEqual(bob_page.find("#auth-notice").text, DEACTIVATED_NOTICE)
        bob_page.find("#auth-username").send_keys(bob_name)
        bob_page.find("#auth-password").send_keys(PASSWORD)
        bob_page.find("#auth-submit").click()
        bob_page.wait_for(lambda d: bob_page.find("#auth-error").text == "This account was deactivated by an administrator.",
                          "login refused with the reason")

        # Reactivated, Bob signs in; made an administrator, he is marked so in the list.
        page.find("#user-active-toggle").click()
        page.wait_for(lambda d: page.find("#user-active-toggle").text == "Deactivate", "reactivated")
        page.find("#user-admin-toggle").click()
        page.wait_for(lambda d: page.find("#user-admin-toggle").text == "Revoke administrator", "Bob an administrator")
        bob_page.find("#auth-submit").click()
        bob_page.wait_for(lambda d: bob_page.find_all("#chat-list"), "Bob signed in again")
        page.find("#topbar-back").click()
        page.wait_for(lambda d: "Admin" in page.find(f'#admin-users a[data-username="{bob_name}"]').text, "Bob marked Admin")

        page.click(f'#admin-users a[data-username="{bob_name}"]', "Bob in the list")
        page.wait_for(lambda d: page.find("#user-admin-toggle").text == "Revoke administrator", "Bob's page")
        page.find("#user-admin-toggle").click()
        page.wait_for(lambda d: page.find("#user-admin-toggle").text == "Make administrator", "Bob no longer one")

        # The audit log has what was done, the rooms list has the lobby.
        page.go("#/me/admin/audit")
        audit_line = f"{root['user']['username']} deactivated {bob_name}"

        def audit_texts():
            more = page.find_all("#admin-audit-more")
            if more and more[0].is_displayed():
                more[0].click()
            return page.texts("#admin-audit .audit-row")
        page.wait_for(lambda d: any(text.startswith(audit_line) for text in audit_texts()), "the deactivation in the audit log")
        page.go("#/me/admin/rooms")
        lobby = page.wait_for(lambda d: page.find('#admin-rooms [data-room-id="lobby"]'), "the lobby in the rooms")
        self.assertIn("Channel", lobby.text)

    def test_gh30_a_password_reset_link_sets_a_password_that_signs_in(self):
        # setup
        root = self.admin("root")
        carol = self.user("carol", "Carol")
        carol_name = carol["user"]["username"]
        page = self.signed_in(root)

        # act: the administrator makes the link
        self.open_user_page(page, carol_name)
        page.find("#user-reset-link").click()
        url = page.wait_for(lambda d: page.find("#reset-link-url").get_attribute("value"), "the reset link")
        self.assertIn("/#/reset/", url)
        page.find("#reset-link-url-copy").click()
        page.wait_for(lambda d: page.find("#reset-link-url-copy").text == "Copied", "Copy says it copied")

        # validate: a bad code says so; the link sets a new password and signs in with it
        other = self.browser()
        other.open("#/reset/not-a-code")
        other.wait_for(lambda d: other.find_all("#reset-form"), "the reset page")
        for field in ("#reset-password", "#reset-confirm"):
            other.find(field).send_keys("a fresh password 1")
        other.find("#reset-submit").click()
        other.wait_for(lambda d: other.find("#reset-error").text.startswith("That reset link is unknown, used or expired."),
                       "invalid_reset explained")
        other.driver.get(url)
        other.wait_for(lambda d: other.find("#reset-password").get_attribute("value") == "", "the real link's page")
        other.find("#reset-password").send_keys("a fresh password 2")
        other.find("#reset-confirm").send_keys("something else!!")
        other.find("#reset-submit").click()
        other.wait_for(lambda d: other.find("#reset-error").text == "The new passwords do not match.", "the two fields differ")
        other.find("#reset-confirm").clear()
        other.find("#reset-confirm").send_keys("short")
        other.find("#reset-password").clear()
        other.find("#reset-password").send_keys("short")
        other.find("#reset-submit").click()
        other.wait_for(lambda d: other.find("#reset-error").text == "Passwords are 8–128 characters.", "invalid_password explained")
        for field in ("#reset-password", "#reset-confirm"):
            other.find(field).clear()
            other.find(field).send_keys("a fresh password 2")
        other.find("#reset-submit").click()
        other.wait_for(lambda d: other.find_all("#chat-list"), "signed in with the new password")
        self.assertEqual(other.js("return JSON.parse(localStorage.getItem('swiftchat.session')).user.username"), carol_name)
        self.assertEqual(other.js("return location.hash"), "#/chats")
        self.assertTrue(api(self.base(), "POST", "/login", {"username": carol_name, "password": "a fresh password 2"})["token"])
        with self.assertRaises(ApiError):
            api(self.base(), "POST", "/login", {"username": carol_name, "password": PASSWORD})

    def test_gh30_an_invitation_registers_someone_where_registration_needs_one(self):
        # setup: a server that admits people by invitation only, with an administrator
        own = self.own_server(["--registration", "invite"])
        root = self.registered_admin_on(own, unique_name("root"))
        page = self.browser(own.base_url)
        page.sign_in_with(root)
        page.go("#/me/admin")
        page.wait_for(lambda d: page.find("#registration-mode").text == "By invitation", "the registration mode")

        # act: an invitation for one person
        page.go("#/me/admin/invites")
        page.wait_for(lambda d: page.find_all("#invite-max-uses"), "the invitation form")
        page.find("#invite-max-uses").send_keys("1")
        page.find("#invite-expires").send_keys("48")
        page.find("#create-invite").click()
        page.wait_for(lambda d: page.find("#invite-form-status").text == "Invitation created: copy its link and send it.", "created")
        row = page.find("#admin-invites .invite-row")  # newest first
        url = row.find_element("css selector", ".copy-input").get_attribute("value")
        code = row.get_attribute("data-code")
        self.assertTrue(url.endswith(f"/#/invite/{code}"), url)
        self.assertIn("used 0 of 1", row.text)
        invite_row = f'#admin-invites .invite-row[data-code="{code}"]'

        # validate: without it, sign-up says an invitation is needed; with its link, the code is filled in
        guest = self.browser(own.base_url)
        guest.open("#/chats")
        guest.wait_for(lambda d: guest.find_all("#auth-switch"), "the sign-in form")
        guest.find("#auth-switch").click()
        guest.wait_for(lambda d: guest.find("#invite-note").text.startswith("This server admits new accounts by invitation only"),
                       "the invitation needed")
        self.assertEqual(guest.find("#auth-invite").get_attribute("value"), "")
        guest.driver.get(url)
        guest.wait_for(lambda d: guest.find_all("#auth-invite") and guest.find("#auth-invite").get_attribute("value"), "the code filled in")
        self.assertEqual(guest.find("#invite-note").text, "You were invited: create your account below.")
        username = unique_name("dora")
        guest.find("#auth-username").send_keys(username)
        guest.find("#auth-password").send_keys(PASSWORD)
        guest.find("#auth-submit").click()
        guest.wait_for(lambda d: guest.find_all("#chat-list"), "registered with the invitation")
        self.assertEqual(guest.js("return location.hash"), "#/chats")
        page.driver.refresh()
        page.wait_for(lambda d: "used 1 of 1" in page.find(invite_row).text, "the invitation used")

        # Used up: another registration with it is refused with the reason.
        late = self.browser(own.base_url)
        late.driver.get(url)
        late.wait_for(lambda d: late.find_all("#auth-invite"), "the registration form")
        late.find("#auth-username").send_keys(unique_name("late"))
        late.find("#auth-password").send_keys(PASSWORD)
        late.find("#auth-submit").click()
        late.wait_for(lambda d: late.find("#auth-error").text.startswith("That invitation is unknown, used up or expired."), "refused")

        # Revoked, it leaves the list.
        page.click(f"{invite_row} .revoke-invite", "the invitation's Revoke")
        page.wait_for(lambda d: page.find("#admin-invites-status").text == "Invitation revoked.", "revoked")
        self.assertEqual(page.find_all(invite_row), [])

        # The only administrator of this server cannot step down: the server's reason shows.
        page.go("#/me/admin/users")
        page.click(f'#admin-users a[data-username="{root["user"]["username"]}"]', "the administrator in the list")
        page.wait_for(lambda d: page.find("#user-admin-toggle").text == "Revoke administrator", "the administrator's page")
        page.find("#user-admin-toggle").click()
        page.wait_for(lambda d: page.find("#admin-user-error").text == LAST_ADMINISTRATOR, "the refusal's reason")
        self.assertTrue(api(own.base_url, "GET", "/me", token=root["token"]).get("admin"), "still an administrator")

    def test_gh30_closed_registration_hides_sign_up(self):
        own = self.own_server(["--registration", "closed"])
        page = self.browser(own.base_url)
        page.open("#/chats")
        page.wait_for(lambda d: page.find_all("#registration-closed"), "the line saying registration is closed")
        self.assertEqual(page.find("#registration-closed").text, "This server does not take new accounts. Ask its administrator.")
        self.assertEqual(page.find_all("#auth-switch"), [], "no way to sign up")

    def registered_admin_on(self, own, username):
        """`username` registered on `own` (with an invitation the operator makes there) and made its administrator."""
        code = own.admin("invite", "--max-uses", "1").strip().rsplit("/", 1)[-1]
        api(own.base_url, "POST", "/register", {"username": username, "password": PASSWORD, "invite": code})
        own.admin("grant", username)
        return api(own.base_url, "POST", "/login", {"username": username, "password": PASSWORD})


if __name__ == "__main__":
    unittest.main()
