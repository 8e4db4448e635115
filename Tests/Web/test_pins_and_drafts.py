"""Pinned chats and drafts (issue 34's web half; PROTOCOL.md §7.5): a chat's menu pins it to the top of the list
(grey, first, on every device) and unpins it, with the mouse or the keyboard; a draft left in a chat reaches the
server, shows as "[Draft] …" in red in the list, and is in the composer on another device until it is sent."""

import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from harness import api
from webcase import WebClientTestCase, rgb
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)


# A right-click on a chat of the list (arguments[0]: its room id), as the browser reports one.
RIGHT_CLICK_JS = """
const item = document.querySelector(`.chat-item[data-room-id="${arguments[0]}"]`);
const box = item.getBoundingClientRect();
item.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true, button: 2, clientX: box.left + 40, clientY: box.top + 20 }));
"""


class PinsAndDraftsTests(WebClientTestCase):
    def summary(self, session, room_id):
        return next(room for room in api(self.base(), "GET", "/rooms", token=session["token"]) if room["id"] == room_id)

    def order(self, page):
        return page.js("return [...document.querySelectorAll('#chat-list .chat-item')].map((item) => item.dataset.roomId)")

    def test_gh34_pin_to_top_from_the_menu_and_unpin_with_the_keyboard(self):
        # setup: two groups, the older one to pin
        ann = self.user("ann", "Ann Lee")
        older = api(self.base(), "POST", "/rooms", {"kind": "group", "name": "Older", "members": []}, token=ann["token"])["id"]
        newer = api(self.base(), "POST", "/rooms", {"kind": "group", "name": "Newer", "members": []}, token=ann["token"])["id"]
        socket = self.socket(ann)
        socket.send_message(older, "first")
        socket.send_message(newer, "second")
        page = self.signed_in(ann)
        page.wait_for(lambda d: self.order(page)[:2] == [newer, older], "the newest activity first")

        # act: right-click the older chat, Pin to top
        # A right-click made in the page on the chat itself: the list may still be rebuilt as the messages settle, and a
        # click at a point could land on another chat.
        page.js(RIGHT_CLICK_JS, older)
        page.wait_for(lambda d: page.find("#chat-item-menu").is_displayed(), "the chat's menu")
        self.assertEqual(page.js("return document.activeElement.textContent"), "Pin to top")
        page.find('#chat-item-menu [data-action="pin"]').click()

        # validate: first, grey, and pinned on the server
        page.wait_for(lambda d: self.order(page)[0] == older, "the pinned chat first")
        pinned = page.find(f'.chat-item[data-room-id="{older}"]')
        self.assertIn("pinned", pinned.get_attribute("class"))
        self.assertNotEqual(rgb(pinned.value_of_css_property("background-color")),
                            rgb(page.find(f'.chat-item[data-room-id="{newer}"]').value_of_css_property("background-color")))
        self.assertTrue(self.summary(ann, older).get("pinned"))
        socket.send_message(newer, "still below")
        page.wait_for(lambda d: "still below" in page.find(f'.chat-item[data-room-id="{newer}"]').text, "newer activity")
        self.assertEqual(self.order(page)[0], older, "a pinned chat stays first")

        # act: the keyboard: Shift+F10 on the chat, Enter on Unpin
        page.js("document.querySelector(`.chat-item[data-room-id=\"${arguments[0]}\"]`).focus()", older)
        ActionChains(page.driver).key_down(Keys.SHIFT).send_keys(Keys.F10).key_up(Keys.SHIFT).perform()
        page.wait_for(lambda d: page.find("#chat-item-menu").is_displayed(), "the menu from the keyboard")
        self.assertEqual(page.js("return document.activeElement.dataset.action"), "unpin")
        ActionChains(page.driver).send_keys(Keys.ENTER).perform()
        page.wait_for(lambda d: self.order(page)[0] == newer, "unpinned: by activity again")
        self.assertIsNone(self.summary(ann, older).get("pinned"))
        self.assertEqual(page.js("return document.activeElement.dataset.roomId"), older, "the focus back on the chat")
        self.assert_no_alerts(page)

    def test_gh34_a_draft_reaches_the_server_shows_in_red_and_follows_me_to_another_device(self):
        # setup
        ann, bob, room_id, page = self.direct_chat()

        # act: type, then leave the chat
        page.find("#composer-input").send_keys("half a thought")
        page.go("#/chats")

        # validate: the server has it, and the list shows it in red
        page.wait_for(lambda d: self.summary(ann, room_id).get("draft") == "half a thought", "the draft on the server")
        item = f'.chat-item[data-room-id="{room_id}"]'
        page.wait_for(lambda d: page.find(f"{item} .chat-item-preview").text == "[Draft] half a thought", "[Draft] in the list")
        self.assertEqual(rgb(page.find(f"{item} .draft-mark").value_of_css_property("color")), (198, 40, 40))

        # another device shows it in the list and in the composer; sending it clears it everywhere
        other = self.signed_in(ann)
        other.wait_for(lambda d: other.find(f"{item} .chat-item-preview").text == "[Draft] half a thought", "the draft on another device")
        self.open_chat(other, room_id)
        self.assertEqual(other.find("#composer-input").get_attribute("value"), "half a thought")
        other.find("#composer-input").send_keys(Keys.ENTER)
        self.wait_for_texts(other, ["half a thought"], "the draft sent")
        page.wait_for(lambda d: "draft" not in self.summary(ann, room_id), "no draft on the server once sent")
        # No event tells the first device (§7.5 has none): its next room list does.
        page.driver.refresh()
        page.wait_for(lambda d: page.find_all(f"{item} .chat-item-preview") and not page.find_all(f"{item} .draft-mark")
                      and "half a thought" in page.find(f"{item} .chat-item-preview").text, "the list without the draft")
        self.assert_no_alerts(page, other)


if __name__ == "__main__":
    unittest.main()
