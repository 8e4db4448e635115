"""My data in the web client (issue 30, PROTOCOL.md §10.6, §10.7): the export downloads as a JSON file; blocking
from a direct chat's info and unblocking from Me → My data; deleting my account asks for the password and signs
out, saying so; an administrator deleting someone."""

import glob
import json
import os
import tempfile
import time
import unittest

from harness import PASSWORD, ApiError, api
from webcase import WebClientTestCase
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)


class MyDataTests(WebClientTestCase):
    def test_gh30_export_downloads_my_data_as_json(self):
        # setup
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob")
        room_id = self.direct_room(ann, bob)
        self.socket(ann).send_message(room_id, "words to take along")
        downloads = tempfile.mkdtemp(prefix="swiftchat-downloads-")
        page = self.signed_in(ann)
        page.driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})

        # act
        page.go("#/me")
        page.click("#me-data-link", "My data")
        page.wait_for(lambda d: page.find("#topbar-title").text == "My data", "the My data page")
        page.find("#export-data").click()

        # validate
        name = f"swiftchat-{ann['user']['username']}.json"
        page.wait_for(lambda d: page.find("#export-status").text == f"Downloaded {name}.", "the download done")
        path = os.path.join(downloads, name)
        deadline = time.monotonic() + 20
        while not os.path.exists(path) and time.monotonic() < deadline:
            time.sleep(0.2)
        self.assertEqual(glob.glob(os.path.join(downloads, "*.crdownload")), [], "the download finished")
        with open(path, encoding="utf-8") as file:
            export = json.load(file)
        self.assertEqual(export["format"], "swiftchat-export-1")
        self.assertEqual(export["profile"]["username"], ann["user"]["username"])
        self.assertEqual([message["text"] for message in export["messages"]], ["words to take along"])

    def test_gh30_blocking_from_the_chat_info_and_unblocking_from_my_data(self):
        # setup
        ann, bob = self.user("ann"), self.user("bob", "Bob Chen")
        room_id = self.direct_room(ann, bob)
        page = self.signed_in(ann)
        self.open_chat(page, room_id)

        # act: Block in the chat's info
        page.find("#room-info-button").click()
        page.click("#block-user", "Block")

        # validate: blocked on the server; the chat is still Bob's; Unblock is offered there and in My data
        page.wait_for(lambda d: page.find("#blocked-note").text == "You blocked Bob Chen: they cannot write to you.", "blocked")
        self.assertEqual([profile["id"] for profile in api(self.base(), "GET", "/me/blocks", token=ann["token"])], [bob["user"]["id"]])
        with self.assertRaises(ApiError) as refused:
            api(self.base(), "POST", "/dms", {"username": ann["user"]["username"]}, token=bob["token"])
        self.assertEqual(refused.exception.status, 403)
        page.find("#room-info .dialog-close").click()
        page.driver.refresh()
        page.wait_for(lambda d: page.find(f'.chat-item[data-room-id="{room_id}"] .chat-item-name').text == "Bob Chen",
                      "the chat still named after Bob")
        self.open_chat(page, room_id)
        page.find("#room-info-button").click()
        page.wait_for(lambda d: page.find_all("#unblock-user"), "Unblock in the chat's info after a reload")
        page.find("#room-info .dialog-close").click()

        page.go("#/me/data")
        row = f'#blocked-list [data-username="{bob["user"]["username"]}"]'
        page.wait_for(lambda d: page.find_all(row), "Bob among the blocked")
        page.click(f"{row} .unblock-button", "Unblock")
        page.wait_for(lambda d: page.find("#blocked-status").text == "Bob Chen is no longer blocked.", "unblocked")
        page.wait_for(lambda d: page.find("#blocked-list").text == "You have blocked nobody.", "nobody blocked")
        self.assertEqual(api(self.base(), "GET", "/me/blocks", token=ann["token"]), [])

    def test_gh30_deleting_my_account_asks_for_the_password_and_signs_out(self):
        # setup
        ann = self.user("ann")
        page = self.signed_in(ann)
        page.go("#/me/data")
        page.wait_for(lambda d: page.find_all("#delete-password"), "the delete form")

        # act: a wrong password, then the right one
        page.find("#delete-password").send_keys("not my password")
        page.find("#delete-account").click()
        page.wait_for(lambda d: page.find("#delete-error").text == "Wrong username or password.", "the wrong password refused")
        page.find("#delete-password").clear()
        page.find("#delete-password").send_keys(PASSWORD)
        page.find("#delete-account").click()

        # validate
        page.wait_for(lambda d: page.find_all("#auth-notice"), "signed out")
        self.assertEqual(page.find("#auth-notice").text, "Your account was deleted.")
        self.assertIn("confirm: Delete your account for good?", page.alerts())
        stored = page.js("return Object.keys(localStorage).filter((key) => key.endsWith('.' + arguments[0]))", ann["user"]["id"])
        self.assertEqual(stored, [], "nothing of the account left in the browser")
        with self.assertRaises(ApiError):
            api(self.base(), "POST", "/login", {"username": ann["user"]["username"], "password": PASSWORD})

    def test_gh30_an_administrator_deletes_an_account(self):
        root = self.admin("root")
        dan = self.user("dan", "Dan Wu")
        dan_page = self.signed_in(dan)
        page = self.signed_in(root)
        self.open_user_page(page, dan["user"]["username"])
        page.click("#user-delete", "Delete account")
        page.wait_for(lambda d: page.find("#topbar-title").text == "Users", "back to the users")
        self.assertIn("confirm: Delete Dan Wu’s account? Their messages are deleted everywhere. This cannot be undone.", page.alerts())
        dan_page.wait_for(lambda d: dan_page.find_all("#auth-form"), "Dan signed out")
        with self.assertRaises(ApiError) as gone:
            api(self.base(), "GET", "/me", token=dan["token"])
        self.assertEqual(gone.exception.status, 401)


if __name__ == "__main__":
    unittest.main()
