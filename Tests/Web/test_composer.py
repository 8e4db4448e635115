"""The composer: Shift+Enter and Enter, the message size limit checked before sending, and a refused message
given back to edit."""

import time
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from harness import api
from webcase import FRAME_RECORDER_JS, WebClientTestCase, arm_sabotage, server
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)


class ComposerTests(WebClientTestCase):
    def test_shift_enter_inserts_a_newline_and_enter_sends(self):
        ann, bob, room_id, page = self.direct_chat()
        box = page.find("#composer-input")
        box.send_keys("line one")
        ActionChains(page.driver).key_down(Keys.SHIFT).send_keys(Keys.ENTER).key_up(Keys.SHIFT).perform()
        box.send_keys("line two")
        self.assertEqual(box.get_attribute("value"), "line one\nline two")
        self.assertEqual(self.messages(page), [], "Shift+Enter sends nothing")

        box.send_keys(Keys.ENTER)
        self.wait_for_texts(page, ["line one\nline two"], "the two-line message delivered")
        self.assertEqual(box.get_attribute("value"), "")
        self.assertEqual(page.find("#messages .message-text").text, "line one\nline two", "shown on two lines")
        self.assertEqual(self.history_texts(bob, room_id), ["line one\nline two"])


class ComposerLimitTests(WebClientTestCase):
    """Issue 15, defect 4: the size limit is checked before sending; refusals say why and give the text back."""

    SET_TEXT_JS = ("const box = document.getElementById('composer-input'); box.value = arguments[0];"
                   "box.dispatchEvent(new Event('input', {bubbles: true}));")

    def test_gh15_an_over_long_message_is_not_sent_and_says_why(self):
        ann, bob = self.user("ann"), self.user("bob")
        room_id = self.direct_room(ann, bob)
        limit = api(self.base(), "GET", "/config")["maxMessageBytes"]
        page = self.signed_in(ann)
        self.open_chat(page, room_id)

        page.js(self.SET_TEXT_JS, "a" * (limit - 100))
        self.assertEqual(page.find("#composer-count").text, "100 bytes left")
        text = "a" * (limit - 100) + "é" * 62  # 2 bytes each: 24 bytes over
        page.js(self.SET_TEXT_JS, text)
        self.assertEqual(page.find("#composer-count").text, "Too long by 24 bytes: shorten it to send.")
        page.find("#composer-input").send_keys(Keys.ENTER)
        time.sleep(0.5)
        self.assertEqual(self.messages(page), [], "nothing was sent")
        self.assertEqual(page.find("#composer-input").get_attribute("value"), text, "the text stays")
        self.assertEqual(page.find("#composer-count").get_attribute("role"), "alert")

        page.js(self.SET_TEXT_JS, "short now")
        self.assertEqual(page.find("#composer-count").text, "")
        page.find("#composer-input").send_keys(Keys.ENTER)
        self.wait_for_texts(page, ["short now"], "the shortened message sent")

    def test_gh15_a_refused_message_shows_the_reason_and_edit_puts_the_text_back(self):
        ann, bob, room_id, page = self.direct_chat()
        page.js(FRAME_RECORDER_JS)
        arm_sabotage(page, "send")
        self.type_and_send(page, "refused words")
        status = page.wait_for(lambda d: page.find("#messages .message.failed .failed-status"), "the refusal")
        self.assertIn("Not sent: You are not a member of that chat.", status.text)
        page.click("#messages .message.failed .edit-button", "Edit under the refused message")
        page.wait_for(lambda d: page.find("#composer-input").get_attribute("value") == "refused words", "the text back in the composer")
        self.assertEqual(self.messages(page), [], "the refused bubble is gone")
        page.find("#composer-input").send_keys(Keys.ENTER)
        self.wait_for_texts(page, ["refused words"], "sent after editing")

    def test_gh34_the_limits_are_read_again_on_every_reconnect(self):
        """Issue 34, defect 9: a message queued offline is refused by a server that came back with a lower limit;
        Edit puts it back with the count against the new limit (the page had read the limits once)."""
        ann, bob, room_id, page = self.direct_chat()
        text = "a" * 300
        server.stop()
        try:
            page.wait_for(lambda d: page.find("#connection-banner").is_displayed(), "offline")
            page.js(self.SET_TEXT_JS, text)
            page.find("#composer-input").send_keys(Keys.ENTER)
            page.wait_for(lambda d: page.find_all("#messages .message.pending"), "the message waiting")
            server.start(["--max-message-bytes", "200"])
            status = page.wait_for(lambda d: page.find("#messages .message.failed .failed-status"), "the refusal", timeout=60)
            self.assertIn("That message is too long.", status.text)
            page.click("#messages .message.failed .edit-button", "Edit under the refused message")
            page.wait_for(lambda d: page.find("#composer-input").get_attribute("value") == text, "the text back")
            page.wait_for(lambda d: page.find("#composer-count").text == "Too long by 100 bytes: shorten it to send.",
                          "the count against the new limit")
        finally:
            server.restart()


if __name__ == "__main__":
    unittest.main()
