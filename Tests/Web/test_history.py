"""Scrolling the messages: older pages load in order without a jump, and new messages follow only at the
bottom (elsewhere the New messages pill shows)."""

import unittest

from harness import unique_name
from webcase import WebClientTestCase
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)


class HistoryTests(WebClientTestCase):
    def test_scrolling_up_loads_200_messages_in_order_without_jumping(self):
        seeder, viewer = self.user("seed"), self.user("view")
        room_id = self.channel(seeder, unique_name("History "), [viewer["user"]["username"]])["id"]
        seeding = self.socket(seeder)
        for number in range(1, 201):
            seeding.send_message(room_id, f"message {number}")
        self.mark_read(viewer, room_id)  # otherwise the chat opens at the first unread message

        browser = self.signed_in(viewer, width=1280, height=800)
        self.open_chat(browser, room_id)
        browser.wait_for(lambda d: (self.messages(browser) or [{}])[-1].get("text") == "message 200", "the newest page")
        self.assertTrue(browser.js("const s = document.getElementById('messages');"
                                   "return s.scrollHeight - s.scrollTop - s.clientHeight < 50"), "opens at the bottom")

        for _ in range(20):
            seqs = [m["seq"] for m in self.messages(browser)]
            if seqs[0] == 1:
                break
            oldest = seqs[0]
            top_before = browser.js(
                "const scroller = document.getElementById('messages'); scroller.scrollTop = 0;"
                "return document.querySelector(`#messages [data-seq=\"${arguments[0]}\"] .bubble`).getBoundingClientRect().top;",
                oldest)
            browser.wait_for(lambda d: self.messages(browser)[0]["seq"] < oldest, "an older page")
            top_after = browser.js(
                "return document.querySelector(`#messages [data-seq=\"${arguments[0]}\"] .bubble`).getBoundingClientRect().top;",
                oldest)
            self.assertLessEqual(abs(top_after - top_before), 2, "the message on screen stayed where it was")

        messages = self.messages(browser)
        self.assertEqual([m["seq"] for m in messages], list(range(1, 201)))
        self.assertEqual([m["text"] for m in messages], [f"message {n}" for n in range(1, 201)])
        browser.wait_for(lambda d: browser.find("#messages .history-note").text == "This is the beginning of the chat.",
                         "the beginning marker")


class AutoscrollTests(WebClientTestCase):
    def test_new_messages_follow_only_at_the_bottom_and_otherwise_show_the_pill(self):
        talker, viewer = self.user("talk"), self.user("view")
        room_id = self.channel(talker, unique_name("Scroll "), [viewer["user"]["username"]])["id"]
        talk = self.socket(talker)
        for number in range(1, 41):
            talk.send_message(room_id, f"line {number}")
        self.mark_read(viewer, room_id)
        page = self.signed_in(viewer, width=1280, height=800)
        self.open_chat(page, room_id)
        page.wait_for(lambda d: (self.messages(page) or [{}])[-1].get("text") == "line 40", "the chat")
        page.wait_for(lambda d: self.scroll_state(page)["atBottom"], "the chat open at the bottom")

        anchor_js = "return document.querySelector('#messages [data-seq=\"20\"] .bubble').getBoundingClientRect().top;"
        page.js("const s = document.getElementById('messages'); s.scrollTop = (s.scrollHeight - s.clientHeight) / 2;")
        before = self.scroll_state(page)
        self.assertFalse(before["atBottom"])
        anchor_before = page.js(anchor_js)

        talk.send_message(room_id, "line 41")
        page.wait_for(lambda d: self.messages(page)[-1]["text"] == "line 41", "the new message")
        after = self.scroll_state(page)
        self.assertAlmostEqual(after["top"], before["top"], delta=1, msg="the viewport did not move")
        self.assertAlmostEqual(page.js(anchor_js), anchor_before, delta=1)
        self.assertTrue(after["pill"], "the New messages pill shows")
        self.assertEqual(page.find("#new-messages-pill").text, "New messages")

        page.find("#new-messages-pill").click()
        page.wait_for(lambda d: self.scroll_state(page)["atBottom"] and not self.scroll_state(page)["pill"],
                      "the pill took us to the bottom and went away")

        talk.send_message(room_id, "line 42")
        page.wait_for(lambda d: self.messages(page)[-1]["text"] == "line 42", "another new message")
        state = self.scroll_state(page)
        self.assertTrue(state["atBottom"], "at the bottom, the chat follows new messages")
        self.assertFalse(state["pill"])


if __name__ == "__main__":
    unittest.main()
