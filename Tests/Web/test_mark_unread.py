"""Marking a chat unread (issue 34's web half; PROTOCOL.md §7.5, WeChat's 标为未读): "Mark as unread" in a chat's menu
puts a dot on it in the list (on every device of the account, after a reload), opening the chat clears the mark, and
"Mark as read" clears it from the menu."""

import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from harness import api, axe_violations
from webcase import WebClientTestCase
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)

from test_pins_and_drafts import RIGHT_CLICK_JS


class MarkUnreadTests(WebClientTestCase):
    def marked(self, session, room_id):
        return next(room for room in api(self.base(), "GET", "/rooms", token=session["token"]) if room["id"] == room_id).get("markedUnread")

    def dot(self, page, room_id):
        return page.find_all(f'.chat-item[data-room-id="{room_id}"] .unread-dot')

    def test_gh34_mark_a_read_chat_unread_see_it_on_another_device_and_clear_it_by_opening(self):
        # setup: a chat Ann has read
        ann, bob, room_id, _ = self.direct_chat()
        self.socket(bob).send_message(room_id, "see you at eight")
        self.mark_read(ann, room_id)
        page = self.signed_in(ann)
        page.wait_for(lambda d: "see you at eight" in page.find(f'.chat-item[data-room-id="{room_id}"]').text, "the chat in the list")
        self.assertEqual(self.badge(page, room_id), None, "nothing unread")

        # act: right-click, Mark as unread
        page.js(RIGHT_CLICK_JS, room_id)
        page.wait_for(lambda d: page.find("#chat-item-menu").is_displayed(), "the chat's menu")
        self.assertEqual(page.texts("#chat-item-menu [role=menuitem]"), ["Pin to top", "Mark as unread"])
        for dark in (False, True):
            page.set_dark(dark)
            self.assertEqual(axe_violations(page, f"chat menu {'dark' if dark else 'light'}"), [])
        page.set_dark(False)
        page.find('#chat-item-menu [data-action="markUnread"]').click()

        # validate: a dot, on the server, and on another browser after a reload
        page.wait_for(lambda d: self.dot(page, room_id), "the unread dot")
        self.assertEqual(self.dot(page, room_id)[0].get_attribute("aria-label"), "Marked unread")
        self.assertTrue(self.marked(ann, room_id))
        other = self.signed_in(ann, dark=True)
        other.wait_for(lambda d: self.dot(other, room_id), "the dot on another browser")
        self.assertEqual(axe_violations(other, "a chat marked unread, dark"), [])

        # act: Mark as read from the keyboard on the other browser
        other.js("document.querySelector(`.chat-item[data-room-id=\"${arguments[0]}\"]`).focus()", room_id)
        ActionChains(other.driver).key_down(Keys.SHIFT).send_keys(Keys.F10).key_up(Keys.SHIFT).perform()
        other.wait_for(lambda d: other.find("#chat-item-menu").is_displayed(), "the menu from the keyboard")
        ActionChains(other.driver).send_keys(Keys.ARROW_DOWN).perform()
        self.assertEqual(other.js("return document.activeElement.textContent"), "Mark as read")
        ActionChains(other.driver).send_keys(Keys.ENTER).perform()
        other.wait_for(lambda d: not self.dot(other, room_id), "no dot once marked read")
        self.assertIsNone(self.marked(ann, room_id))

        # act: mark it unread again, then open it: the mark goes everywhere
        other.js(RIGHT_CLICK_JS, room_id)
        other.wait_for(lambda d: other.find("#chat-item-menu").is_displayed(), "the chat's menu again")
        other.find('#chat-item-menu [data-action="markUnread"]').click()
        other.wait_for(lambda d: self.dot(other, room_id), "the dot again")
        self.open_chat(other, room_id)
        other.wait_for(lambda d: not self.marked(ann, room_id), "the mark cleared by opening the chat")
        other.go("#/chats")
        other.wait_for(lambda d: other.find_all(f'.chat-item[data-room-id="{room_id}"]') and not self.dot(other, room_id), "no dot")
        page.driver.refresh()
        page.wait_for(lambda d: page.find_all(f'.chat-item[data-room-id="{room_id}"]') and not self.dot(page, room_id),
                      "no dot on the first browser after a reload")
        self.assert_no_alerts(page, other)

    def test_gh34_mark_unread_on_a_phone_in_chinese(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        room_id = self.direct_room(ann, bob)
        self.socket(bob).send_message(room_id, "早")
        self.mark_read(ann, room_id)
        page = self.browser(width=390, height=844)
        page.open("#/chats")
        page.js("localStorage.setItem('swiftchat.language', 'zh-CN')")
        page.sign_in_with(ann)
        page.set_viewport(390, 844, mobile=True)
        page.wait_for(lambda d: page.find_all(f'.chat-item[data-room-id="{room_id}"]'), "the chat")
        page.js(RIGHT_CLICK_JS, room_id)  # a long press: the browser sends a context menu for it
        page.wait_for(lambda d: page.find("#chat-item-menu").is_displayed(), "the chat's menu")
        self.assertEqual(page.texts("#chat-item-menu [role=menuitem]"), ["置顶", "标为未读"])
        page.find('#chat-item-menu [data-action="markUnread"]').click()
        page.wait_for(lambda d: self.dot(page, room_id), "the unread dot")
        self.assertEqual(self.dot(page, room_id)[0].get_attribute("aria-label"), "已标为未读")
        page.js(RIGHT_CLICK_JS, room_id)
        page.wait_for(lambda d: page.find("#chat-item-menu").is_displayed(), "the chat's menu again")
        self.assertEqual(page.find('#chat-item-menu [data-action="markRead"]').text, "标为已读")
        self.assert_no_alerts(page)


if __name__ == "__main__":
    unittest.main()
