"""Groups and channels: create a group, invite, mute, leave, member counts and the members list, and renaming
a group or channel (the rename line, refusals, chats that cannot be renamed)."""

import os
import re
import time
import unittest
import uuid

from selenium.webdriver.common.keys import Keys

from harness import REPO, ApiError, api, axe_violations, register, unique_name
from webcase import DARK_BACKGROUND, NOTIFICATION_RECORDER_JS, WebClientTestCase, rgb, seed
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)


class GroupTests(WebClientTestCase):
    """Issue 15, groups: create a group or a channel, invite, mute, leave, member counts."""

    def test_gh15_create_a_group_invite_someone_mute_and_leave(self):
        ann, bob, carol = self.user("ann"), self.user("bob"), self.user("carol")
        page = self.signed_in(ann)
        page.go("#/discover")
        name = unique_name("Book club ")
        page.wait_for(lambda d: page.find("#kind-group"), "the create form").click()
        page.find("#room-members").send_keys(bob["user"]["username"])
        page.find("#channel-name").send_keys(name)
        page.find("#create-channel button[type=submit]").click()
        page.wait_for(lambda d: page.find("#chat-title").text == name, "the new group")
        room_id = page.find(".chat-view").get_attribute("data-room-id")
        self.assertEqual(page.find("#chat-subtitle").text, "Group")
        bob_rooms = api(self.base(), "GET", "/rooms", token=bob["token"])
        self.assertEqual([r["kind"] for r in bob_rooms if r["id"] == room_id], ["group"])
        self.assertNotIn(room_id, [c["id"] for c in api(self.base(), "GET", "/rooms/public", token=carol["token"])])

        page.find("#room-info-button").click()
        page.wait_for(lambda d: page.find("#room-info").is_displayed(), "the chat info")
        page.find("#invite-username").send_keys(carol["user"]["username"], Keys.ENTER)
        page.wait_for(lambda d: "was added" in page.find("#invite-status").text, "the invitation done")
        self.assertIn(room_id, [r["id"] for r in api(self.base(), "GET", "/rooms", token=carol["token"])])
        page.find("label[for=notify-level-none]").click()
        page.wait_for(lambda d: page.find("#chat-pane .muted-mark").is_displayed(), "the muted mark")
        page.find("#room-info .dialog-close").click()

        page.find("#room-info-button").click()
        page.click("#leave-room", "Leave")
        page.wait_for(lambda d: not page.find_all(f'.chat-item[data-room-id="{room_id}"]'), "the group gone from the list")
        self.assertNotIn(room_id, [r["id"] for r in api(self.base(), "GET", "/rooms", token=ann["token"])])
        self.assertTrue(any(alert.startswith("confirm: Leave") for alert in page.alerts()))

    def test_gh15_gh34_member_counts_and_lists_follow_joins_and_invitations(self):
        """Issue 34, defect 5: the count was one short after joining from Discover, and the chat info's member list
        stayed as it was when it opened."""
        ann, bob, carol = self.user("ann"), self.user("bob"), self.user("carol")
        dave, erin = self.user("dave"), self.user("erin")
        room_id = self.channel(ann, unique_name("Count "), [bob["user"]["username"]])["id"]
        page = self.signed_in(carol)
        page.go("#/discover")
        page.wait_for(lambda d: page.find(f'.channel-item[data-room-id="{room_id}"] .contact-detail').text == "2 members",
                      "the channel in Discover")
        page.click(f'.channel-item[data-room-id="{room_id}"] button', "Join")
        page.wait_for(lambda d: page.find("#chat-subtitle").text == "Channel · 3 members", "the member count with me in it")

        page.find("#room-info-button").click()
        rows_js = "return [...document.querySelectorAll('#room-info-members .member-row')].map((row) => row.dataset.username)"
        page.wait_for(lambda d: len(page.js(rows_js)) == 3, "three members listed")
        page.find("#invite-username").send_keys(dave["user"]["username"], Keys.ENTER)
        page.wait_for(lambda d: dave["user"]["username"] in page.js(rows_js), "the invited member listed")
        page.wait_for(lambda d: page.find("#room-info-kind").text == "Channel · 4 members", "the count in the chat info")
        api(self.base(), "POST", f"/rooms/{room_id}/join", token=erin["token"])
        self.socket(erin).send_message(room_id, "hi, I am new here")
        page.wait_for(lambda d: erin["user"]["username"] in page.js(rows_js), "someone who joined and spoke, listed")
        page.wait_for(lambda d: page.find("#room-info-kind").text == "Channel · 5 members", "the count with them")

    def test_gh15_the_chat_info_lists_a_groups_members_with_avatar_and_presence(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Stone")
        room_id = api(self.base(), "POST", "/rooms", {"kind": "group", "name": unique_name("Pair "),
                                                       "members": [bob["user"]["username"]]}, token=ann["token"])["id"]
        self.socket(bob)  # Bob is online
        page = self.signed_in(ann)
        self.open_chat(page, room_id)
        page.find("#room-info-button").click()
        members_js = ("return Array.from(document.querySelectorAll('#room-info-members .member-row'), (row) => ({"
                      "username: row.dataset.username, name: row.querySelector('.member-name').textContent,"
                      "initials: row.querySelector('.avatar').textContent,"
                      "online: row.querySelector('.presence-dot').classList.contains('online')}));")
        ann_row = {"username": ann["user"]["username"], "name": "Ann Lee (You)", "initials": ann["user"]["initials"], "online": True}
        bob_row = {"username": bob["user"]["username"], "name": "Bob Stone", "initials": bob["user"]["initials"], "online": True}
        expected = sorted([ann_row, bob_row], key=lambda row: row["username"])
        try:
            page.wait_for(lambda d: page.js(members_js) == expected, "both members, by username, with initials and Bob online")
        except AssertionError:
            self.fail(f"the chat info shows {page.js(members_js)}, not {expected}")
        self.assert_no_alerts(page)


class NewChatTests(WebClientTestCase):
    """Issue 34: ⊕ on Chats starts a chat, a group with people picked from a list, or a chat with someone found by
    username (Add contact). Discover keeps the public channels."""

    def test_gh34_new_chat_new_group_and_add_contact_from_the_plus_menu(self):
        tag = uuid.uuid4().hex[:6]
        ann = self.user("ann", "Ann Lee")
        bob, carol, dave = (register(self.base(), unique_name(name), f"{name.title()} {tag}") for name in ("bob", "carol", "dave"))
        for someone in (bob, carol):  # New chat and New group pick from my contacts (§6.4)
            api(self.base(), "POST", "/me/contacts", {"username": someone["user"]["username"]}, token=ann["token"])
        page = self.signed_in(ann)

        def choose(mode):
            page.find("#new-chat-button").click()
            page.wait_for(lambda d: page.find("#new-chat-menu").is_displayed(), "the ⊕ menu")
            self.assertEqual(page.texts("#new-chat-menu [role=menuitem]"), ["New chat", "New group", "Add contact"])
            page.find(f'#new-chat-menu [data-mode="{mode}"]').click()
            page.wait_for(lambda d: page.find("#people-picker").is_displayed(), f"the {mode} dialog")

        def person(username):
            return f'#people-results .contact-item[data-username="{username}"]'

        choose("chat")
        page.find("#people-search").send_keys(bob["user"]["username"])
        page.click(person(bob["user"]["username"]), "Bob in the list")
        page.wait_for(lambda d: page.find("#chat-title").text == f"Bob {tag}", "the direct chat with Bob")

        choose("group")
        page.find("#new-group-name").send_keys("Ski trip")
        page.find("#people-search").send_keys(tag)
        for someone in (bob, carol):
            page.click(f'{person(someone["user"]["username"])} input', "a member to tick")
        self.assertEqual(page.find("#people-chosen").text, "2 chosen")
        page.find("#new-group-create").click()
        page.wait_for(lambda d: page.find("#chat-title").text == "Ski trip", "the new group")
        room_id = page.find(".chat-view").get_attribute("data-room-id")
        members = api(self.base(), "GET", f"/rooms/{room_id}/members", token=ann["token"])
        self.assertEqual(sorted(m["username"] for m in members),
                         sorted([ann["user"]["username"], bob["user"]["username"], carol["user"]["username"]]))
        self.assertEqual([r["kind"] for r in api(self.base(), "GET", "/rooms", token=carol["token"]) if r["id"] == room_id], ["group"])

        choose("contact")
        self.assertEqual(page.find_all("#people-results li"), [], "nobody listed before a search")
        page.find("#people-search").send_keys(dave["user"]["username"], Keys.ENTER)
        page.click(person(dave["user"]["username"]), "Dave found")
        page.wait_for(lambda d: page.find("#toast").text == f"Dave {tag} is now a contact.", "Dave added to my contacts")
        self.assertIn(dave["user"]["id"], [c["user"]["id"] for c in api(self.base(), "GET", "/me/contacts", token=ann["token"])["contacts"]])
        self.assert_no_alerts(page)


RENAME_LINES_JS = "return [...document.querySelectorAll('#messages .rename-line')].map((line) => line.textContent)"


TIMELINE_JS = """
return [...document.querySelectorAll('#messages .message[data-seq], #messages .rename-line')].map((node) =>
  node.classList.contains('rename-line') ? node.textContent : node.querySelector('.message-text')?.textContent ?? '');
"""


class RenameTests(WebClientTestCase):
    """Issue 15, groups: renaming a group or channel from the chat info; a rename shows as a line in the chat."""

    def group(self, owner, name, members=()):
        return api(self.base(), "POST", "/rooms", {"kind": "group", "name": name,
                                                   "members": [m["user"]["username"] for m in members]},
                   token=owner["token"])["id"]

    def rename(self, session, room_id, name):
        return api(self.base(), "PATCH", f"/rooms/{room_id}", {"name": name}, token=session["token"])

    def room_name(self, session, room_id):
        return next(r for r in api(self.base(), "GET", "/rooms", token=session["token"]) if r["id"] == room_id)["name"]

    def list_name(self, page, room_id):
        return page.js("return document.querySelector(`.chat-item[data-room-id=\"${arguments[0]}\"] .chat-item-name`)?.textContent ?? null",
                       room_id)

    def rename_lines(self, page):
        return page.js(RENAME_LINES_JS)

    def wait_for_rename_lines(self, page, lines, what):
        try:
            page.wait_for(lambda d: self.rename_lines(page) == lines, what)
        except AssertionError:
            self.fail(f"{what}: shown {self.rename_lines(page)}, not {lines}")

    def open_info(self, page):
        page.find("#room-info-button").click()
        page.wait_for(lambda d: page.find("#room-info").is_displayed(), "the chat info")

    def start_renaming(self, page):
        page.click("#rename-room", "Rename")
        page.wait_for(lambda d: page.js("return document.activeElement.id") == "room-name-input", "the name field focused")

    def type_name(self, page, name):
        field = page.find("#room-name-input")
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(Keys.DELETE)
        field.send_keys(name)

    def test_gh15_a_group_renamed_in_the_chat_info_shows_the_new_name_and_a_line_for_everyone(self):
        out = os.environ.get("SCREENSHOT_DIR", os.path.join(REPO, "docs", "screenshots"))
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        old_name = unique_name("Weekend ")
        room_id = self.group(ann, old_name, [bob])
        other = self.channel(ann, unique_name("Elsewhere "), [bob["user"]["username"]])["id"]
        # A channel notifies only of mentions until a member chooses (§9.10): Bob wants every message of this one.
        api(self.base(), "PUT", f"/rooms/{other}/notifications", {"level": "all"}, token=bob["token"])
        self.socket(bob).send_message(room_id, "Where shall we go?")
        self.mark_read(ann, room_id)
        self.mark_read(bob, room_id)

        ann_page, bob_page = self.signed_in(ann), self.signed_in(bob)
        bob_page.js(NOTIFICATION_RECORDER_JS)
        for page in (ann_page, bob_page):
            self.open_chat(page, room_id)
            self.wait_for_texts(page, ["Where shall we go?"], "the group's message")

        # Ann renames the group from the chat info: Rename turns the title into a field, Enter saves.
        self.open_info(ann_page)
        self.assertEqual(ann_page.find("#room-info-title").text, old_name)
        self.start_renaming(ann_page)
        self.assertEqual(ann_page.find("#room-name-input").get_attribute("value"), old_name)
        self.assertEqual(ann_page.find("#room-name-input").accessible_name, "Group name")
        self.assertFalse(ann_page.find("#room-info-title").is_displayed(), "the field stands in for the title")
        self.type_name(ann_page, "Trip to Kyoto")
        ann_page.screenshot(os.path.join(out, "desktop-light-rename.png"))
        ann_page.find("#room-name-input").send_keys(Keys.ENTER)
        ann_page.wait_for(lambda d: ann_page.find("#room-info-title").text == "Trip to Kyoto", "the new name in the chat info")
        self.assertEqual(ann_page.find_all("#room-name-input"), [], "the field is gone")
        self.assertEqual(ann_page.js("return document.activeElement.id"), "rename-room", "the focus back on Rename")
        self.assertTrue(ann_page.find("#room-info").is_displayed(), "the chat info stays open")
        self.assertEqual(self.room_name(bob, room_id), "Trip to Kyoto")
        ann_page.find("#room-info .dialog-close").click()
        ann_page.wait_for(lambda d: ann_page.find("#chat-title").text == "Trip to Kyoto", "Ann's header")
        self.wait_for_rename_lines(ann_page, ["You renamed the group to “Trip to Kyoto”"], "Ann's line")

        # Bob's list and open chat follow without a reload, and the line is where it happened.
        bob_page.wait_for(lambda d: bob_page.find("#chat-title").text == "Trip to Kyoto", "Bob's header")
        bob_page.wait_for(lambda d: self.list_name(bob_page, room_id) == "Trip to Kyoto", "Bob's chat list")
        self.wait_for_rename_lines(bob_page, ["Ann Lee renamed the group to “Trip to Kyoto”"], "Bob's line")
        # Announced politely, like a message (by username when the profile was not looked up yet).
        self.assertIn(bob_page.find("#message-announcer").get_attribute("textContent"),
                      [f"{name} renamed the group to “Trip to Kyoto”" for name in ("Ann Lee", ann["user"]["username"])])
        self.assertEqual(bob_page.js(TIMELINE_JS), ["Where shall we go?", "Ann Lee renamed the group to “Trip to Kyoto”"])
        self.assertEqual(bob_page.find(f'.chat-item[data-room-id="{room_id}"] .chat-item-preview').text, "You: Where shall we go?",
                         "a rename is not the last message")
        bob_page.find("#room-info-button").click()
        bob_page.wait_for(lambda d: bob_page.find("#room-info-title").text == "Trip to Kyoto", "the name in Bob's chat info")
        bob_page.find("#room-info .dialog-close").click()
        self.assertEqual([m["text"] for m in self.messages(bob_page)], ["Where shall we go?"], "the line is no message")
        bob_page.js("document.activeElement?.blur()")
        bob_page.screenshot(os.path.join(out, "desktop-light-rename-line.png"))
        bob_page.set_dark(True)
        bob_page.wait_for(lambda d: rgb(bob_page.find(".chat-pane").value_of_css_property("background-color")) == DARK_BACKGROUND,
                          "the dark scheme")
        bob_page.screenshot(os.path.join(out, "desktop-dark-rename-line.png"))
        violations = axe_violations(bob_page, "rename line dark")
        bob_page.set_dark(False)
        violations += axe_violations(bob_page, "rename line light")
        self.assertEqual(violations, [], "\n".join(violations))

        # Renamed while Bob looks at another chat: no unread badge, no notification, and markup stays text.
        bob_page.go("#/me")
        bob_page.click("#notify-desktop", "Desktop notifications")
        bob_page.wait_for(lambda d: bob_page.find("#notify-desktop").is_selected(), "notifications on")
        bob_page.go("#/chats")
        tricky = "<img src=x onerror=alert(1)> Kyoto"
        self.rename(ann, room_id, tricky)
        bob_page.wait_for(lambda d: self.list_name(bob_page, room_id) == tricky, "the second name in Bob's list")
        self.socket(ann).send_message(other, "a message after the rename")
        bob_page.wait_for(lambda d: bob_page.js("return window.__notifications.length") >= 1, "a notification")
        time.sleep(0.5)
        self.assertEqual(bob_page.js("return window.__notifications.map((n) => n.body)"), ["Ann Lee: a message after the rename"],
                         "a notification for the message, none for the rename")
        self.assertIsNone(self.badge(bob_page, room_id), "a rename is not unread")
        ann_page.wait_for(lambda d: ann_page.find("#chat-title").text == tricky, "the renamed-again header on Ann's side")
        self.wait_for_rename_lines(ann_page, ["You renamed the group to “Trip to Kyoto”", f"You renamed the group to “{tricky}”"],
                                   "both lines on Ann's side")

        # After a reload the history shows both lines and the newest name stays.
        bob_page.driver.refresh()
        bob_page.wait_for(lambda d: bob_page.find_all("#chat-list"), "the chat list after a reload")
        self.open_chat(bob_page, room_id)
        self.wait_for_rename_lines(bob_page, ["Ann Lee renamed the group to “Trip to Kyoto”", f"Ann Lee renamed the group to “{tricky}”"],
                                   "both lines from the history")
        self.assertEqual(bob_page.find("#chat-title").text, tricky)
        self.assertEqual(self.list_name(bob_page, room_id), tricky)
        self.assertEqual(bob_page.find_all("#messages img:not(.attachment-image)"), [], "the name is shown as text")
        self.assert_no_alerts(ann_page, bob_page)

    def test_gh15_an_older_rename_in_an_older_page_does_not_bring_the_old_name_back(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        room_id = self.group(ann, unique_name("Book club "), [bob])
        self.rename(ann, room_id, "Readers")
        seed(bob, room_id, 60, prefix="chapter")
        self.rename(bob, room_id, "Readers united")
        self.mark_read(ann, room_id)
        page = self.signed_in(ann)
        self.open_chat(page, room_id)
        self.wait_for_rename_lines(page, ["Bob Chen renamed the group to “Readers united”"], "the newest page's line")
        self.assertEqual(page.find("#chat-title").text, "Readers united")
        for _ in range(10):
            if self.rename_lines(page)[0].startswith("You"):
                break
            page.js("document.getElementById('messages').scrollTop = 0")
            time.sleep(0.5)
        self.wait_for_rename_lines(page, ["You renamed the group to “Readers”", "Bob Chen renamed the group to “Readers united”"],
                                   "the older line loaded by scrolling up")
        self.assertEqual(page.js(TIMELINE_JS)[:2], ["You renamed the group to “Readers”", "chapter 1"])
        time.sleep(0.5)
        self.assertEqual(page.find("#chat-title").text, "Readers united", "the older rename did not win")
        self.assertEqual(self.list_name(page, room_id), "Readers united")

        page.driver.refresh()
        page.wait_for(lambda d: page.find_all("#chat-list"), "the chat list after a reload")
        self.open_chat(page, room_id)
        page.wait_for(lambda d: "Bob Chen renamed the group to “Readers united”" in self.rename_lines(page), "the line after a reload")
        self.assertEqual(page.find("#chat-title").text, "Readers united")
        self.assertEqual(self.list_name(page, room_id), "Readers united")

    def test_gh15_a_refused_rename_shows_why_and_keeps_the_name(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        name = unique_name("Keep ")
        room_id = self.group(ann, name, [bob])
        page = self.signed_in(ann)
        self.open_chat(page, room_id)
        self.open_info(page)
        self.start_renaming(page)

        def refused(what, expected):
            page.wait_for(lambda d: page.find("#rename-error").text == expected, what)
            self.assertEqual(page.find("#room-name-input").get_attribute("aria-invalid"), "true")
            self.assertEqual(page.js("return document.activeElement.id"), "room-name-input", "the focus stays in the field")
            self.assertEqual(page.find("#chat-title").text, name)
            self.assertEqual(self.list_name(page, room_id), name)
            self.assertEqual(self.room_name(ann, room_id), name)

        self.type_name(page, "    ")
        page.find("#room-name-input").send_keys(Keys.ENTER)
        refused("the error for spaces only", "Names are 1–64 characters.")
        self.type_name(page, "x" * 65)
        self.assertEqual(page.find("#rename-error").text, "", "typing clears the error")
        page.find("#rename-save").click()
        refused("the error for 65 characters", "Names are 1–64 characters.")
        self.assertEqual(page.find("#room-name-input").get_attribute("value"), "x" * 65, "what was typed stays to be fixed")
        page.screenshot(os.path.join(os.environ.get("SCREENSHOT_DIR", os.path.join(REPO, "docs", "screenshots")),
                                     "desktop-light-rename-error.png"))
        violations = axe_violations(page, "rename field with an error")
        self.assertEqual(violations, [], "\n".join(violations))

        # Escape leaves the field, not the dialog; the title is the old name.
        page.find("#room-name-input").send_keys(Keys.ESCAPE)
        page.wait_for(lambda d: not page.find_all("#room-name-input"), "the field closed")
        self.assertTrue(page.find("#room-info").is_displayed(), "the chat info stays open")
        self.assertEqual(page.find("#room-info-title").text, name)
        self.assertEqual(page.js("return document.activeElement.id"), "rename-room")
        self.assertEqual(self.rename_lines(page), [])
        page.find("#room-info .dialog-close").click()

        # A channel someone else created: the server refuses, and the reason is said plainly.
        channel = self.channel(bob, unique_name("Bob's "), [ann["user"]["username"]])
        self.open_chat(page, channel["id"])
        self.open_info(page)
        self.start_renaming(page)
        self.type_name(page, "Mine now")
        page.find("#rename-save").click()
        page.wait_for(lambda d: page.find("#rename-error").text == "Only the person who created this channel can rename it.",
                      "the error for someone else's channel")
        self.assertEqual(page.find("#room-name-input").accessible_name, "Channel name")
        self.assertEqual(self.room_name(ann, channel["id"]), channel["name"])
        page.find("#rename-cancel").click()
        page.wait_for(lambda d: page.find("#room-info-title").text == channel["name"], "the old title")
        page.find("#room-info .dialog-close").click()

        # Too many renames: the server says when to try again. (The field is ready first: the budget refills.)
        self.open_chat(page, room_id)
        self.open_info(page)
        self.start_renaming(page)
        self.type_name(page, "One more")
        for number in range(30):
            try:
                self.rename(ann, room_id, f"{name} {number}")
            except ApiError as error:
                self.assertEqual(error.status, 429)
                break
        else:
            self.fail("renames were never limited")
        page.find("#room-name-input").send_keys(Keys.ENTER)
        current = self.room_name(ann, room_id)
        page.wait_for(lambda d: re.fullmatch(r"Too many attempts\. Try again in \d+ s\.", page.find("#rename-error").text),
                      "the rate limit with its wait")
        page.wait_for(lambda d: page.find("#chat-title").text == current, "the header with the last accepted name")
        self.assertEqual(self.room_name(ann, room_id), current)
        self.assert_no_alerts(page)

    def test_gh15_direct_chats_and_the_lobby_offer_no_rename(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        room_id = self.direct_room(ann, bob)
        group_id = self.group(bob, unique_name("Renamable "), [ann])
        page = self.signed_in(ann)
        for room, offered in ((room_id, False), ("lobby", False), (group_id, True)):
            self.open_chat(page, room)
            self.open_info(page)
            page.wait_for(lambda d: page.find("#room-info-title").text, "the title")
            self.assertEqual(bool(page.find_all("#rename-room")), offered, f"Rename offered in {room}")
            page.find("#room-info .dialog-close").click()


if __name__ == "__main__":
    unittest.main()
