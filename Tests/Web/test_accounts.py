"""Accounts in the web client: sign-in and registration errors, reload, profile, language and sign-out;
changing the password; avatar colour and theme."""

import json
import time
import unittest

from harness import PASSWORD, ApiError, api
from webcase import WebClientTestCase
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)


class AccountTests(WebClientTestCase):
    def test_sign_in_errors_reload_profile_language_and_sign_out(self):
        taken = self.user("taken")
        browser = self.browser()
        browser.open("#/chats")
        browser.wait_for(lambda d: browser.find_all("#auth-form"), "the sign-in form")

        browser.find("#auth-switch").click()
        browser.find("#auth-username").send_keys(taken["user"]["username"].upper())
        browser.find("#auth-password").send_keys(PASSWORD)
        browser.find("#auth-submit").click()
        browser.wait_for(lambda d: browser.find("#auth-error").text == "That username is taken.", "the taken error")

        browser.find("#auth-switch").click()
        username = browser.find("#auth-username")
        username.clear()
        username.send_keys(taken["user"]["username"])
        browser.find("#auth-password").send_keys("wrong password")
        browser.find("#auth-submit").click()
        browser.wait_for(lambda d: browser.find("#auth-error").text == "Wrong username or password.", "the wrong-password error")

        password = browser.find("#auth-password")
        password.clear()
        password.send_keys(PASSWORD)
        browser.find("#auth-submit").click()
        browser.wait_for(lambda d: browser.find_all("#chat-list .chat-item"), "the chat list")

        browser.driver.refresh()
        browser.wait_for(lambda d: browser.find_all("#chat-list .chat-item"), "the chat list after a reload")
        self.assertEqual(browser.find_all("#auth-form"), [])

        browser.go("#/me")
        name = browser.wait_for(lambda d: browser.find("#display-name"), "the profile form")
        name.clear()
        name.send_keys("Renamed Person")
        browser.find("#profile-form button[type=submit]").click()
        browser.wait_for(lambda d: browser.find("#me-name").text == "Renamed Person", "the new display name")
        self.assertEqual(api(self.base(), "GET", "/me", token=taken["token"])["displayName"], "Renamed Person")
        browser.wait_for(lambda d: browser.find("#connection-text").text == "Connected", "the connection status")

        browser.js("const select = document.getElementById('language'); select.value = 'zh-CN';"
                   "select.dispatchEvent(new Event('change'));")
        browser.wait_for(lambda d: browser.find("#tab-chats").text.startswith("聊天"), "Chinese tab labels")
        self.assertEqual(browser.find("#sign-out").text, "退出登录")
        browser.js("const select = document.getElementById('language'); select.value = 'en';"
                   "select.dispatchEvent(new Event('change'));")
        browser.wait_for(lambda d: browser.find("#tab-chats").text.startswith("Chats"), "English tab labels")

        token = json.loads(browser.js("return localStorage.getItem('swiftchat.session')"))["token"]
        user_id = taken["user"]["id"]
        browser.js("localStorage.setItem(`swiftchat.drafts.${arguments[0]}`, '{\"room\": \"unsent words\"}')", user_id)
        stored_for_user = "return Object.keys(localStorage).filter((key) => key.endsWith('.' + arguments[0])).sort()"
        browser.wait_for(lambda d: f"swiftchat.rooms.{user_id}" in browser.js(stored_for_user, user_id), "the cached room list")
        browser.find("#sign-out").click()
        browser.wait_for(lambda d: browser.find_all("#auth-form"), "the sign-in form after signing out")
        self.assertEqual(browser.js(stored_for_user, user_id), [], "signing out leaves no rooms, drafts or outbox behind")
        browser.driver.refresh()
        browser.wait_for(lambda d: browser.find_all("#auth-form"), "the sign-in form after a reload")
        with self.assertRaises(ApiError) as revoked:
            api(self.base(), "GET", "/me", token=token)
        self.assertEqual(revoked.exception.status, 401)


class PasswordTests(WebClientTestCase):
    """Issue 15, Me: changing the password keeps this browser signed in with the new session."""

    def test_gh15_changing_the_password_keeps_this_browser_signed_in_and_the_old_one_stops_working(self):
        ann, bob = self.user("ann"), self.user("bob")
        room_id = self.direct_room(ann, bob)
        page = self.signed_in(ann)
        page.go("#/me")
        page.wait_for(lambda d: page.find_all("#password-form"), "the password form")
        new_password = "a much better one 42"
        page.find("#current-password").send_keys("wrong password!")
        page.find("#new-password").send_keys(new_password)
        page.find("#confirm-password").send_keys(new_password)
        page.find("#change-password").click()
        page.wait_for(lambda d: page.find("#password-status").text == "Wrong username or password.", "the server's error")

        page.find("#current-password").clear()
        page.find("#current-password").send_keys(PASSWORD)
        page.find("#change-password").click()
        page.wait_for(lambda d: page.find("#password-status").text.startswith("Password changed"), "the confirmation")
        self.assertEqual(page.find("#current-password").get_attribute("value"), "")
        token = page.js("return JSON.parse(localStorage.getItem('swiftchat.session')).token")
        self.assertNotEqual(token, ann["token"])
        with self.assertRaises(ApiError) as revoked:
            api(self.base(), "GET", "/me", token=ann["token"])
        self.assertEqual(revoked.exception.status, 401)

        # Still signed in here: the socket reconnects with the new token and sends.
        time.sleep(1.5)
        self.assertFalse(page.find_all("#auth-form"), "signed out after the password change")
        self.open_chat(page, room_id)
        self.type_and_send(page, "after the change")
        self.wait_for_texts(page, ["after the change"], "the message sent with the new session")
        self.assertEqual(self.history_texts(bob, room_id), ["after the change"])

        with self.assertRaises(ApiError) as old:
            api(self.base(), "POST", "/login", {"username": ann["user"]["username"], "password": PASSWORD})
        self.assertEqual(old.exception.status, 401)
        self.assertTrue(api(self.base(), "POST", "/login", {"username": ann["user"]["username"], "password": new_password})["token"])
        page.js("location.reload()")
        page.wait_for(lambda d: page.find_all(f'.chat-view[data-room-id="{room_id}"] #composer-input'), "still signed in after a reload")
        self.assert_no_alerts(page)


class ProfileTests(WebClientTestCase):
    """Issue 15, profile: avatar colour and the theme switch."""

    def test_gh15_avatar_colour_and_theme(self):
        ann = self.user("ann")
        page = self.signed_in(ann)
        page.go("#/me")
        page.click('.color-choice[data-color="#7E57C2"]', "a colour")
        page.wait_for(lambda d: page.find('.color-choice[data-color="#7E57C2"]').get_attribute("aria-checked") == "true", "the colour chosen")
        self.assertEqual(api(self.base(), "GET", "/me", token=ann["token"])["avatarColor"], "#7E57C2")

        background = "return getComputedStyle(document.querySelector('.tab-panel')).backgroundColor"
        light = page.js(background)
        page.js("const s = document.getElementById('theme'); s.value = 'dark'; s.dispatchEvent(new Event('change'));")
        page.wait_for(lambda d: page.js(background) != light, "the dark theme while the system is light")
        page.driver.refresh()
        page.wait_for(lambda d: page.find_all("#theme"), "the Me tab after a reload")
        self.assertNotEqual(page.js(background), light, "the theme is kept")
        page.js("const s = document.getElementById('theme'); s.value = 'system'; s.dispatchEvent(new Event('change'));")
        page.wait_for(lambda d: page.js(background) == light, "back to the system's theme")


if __name__ == "__main__":
    unittest.main()
