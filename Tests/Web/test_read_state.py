"""What is read and what asks for attention: unread badges, read only once on screen, opening at the first
unread, desktop notifications with the icon's badge and mute, and "last seen"."""

import re
import time
import unittest

from harness import TIMEOUT, WebSocketClient, api, unique_name
from webcase import NOTIFICATION_RECORDER_JS, WebClientTestCase, seed
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)


class ChannelTests(WebClientTestCase):
    def test_unread_badges_go_up_and_clear_when_the_chat_is_opened(self):
        owner, member, talker = self.user("own"), self.user("mem"), self.user("tlk")
        first = self.signed_in(owner)
        second = self.signed_in(member)
        name = unique_name("Team ")

        first.go("#/discover")
        first.wait_for(lambda d: first.find("#channel-name"), "the create-channel form").send_keys(name)
        first.find("#create-channel button[type=submit]").click()
        first.wait_for(lambda d: first.find_all(".chat-view"), "the new channel")
        room_id = first.find(".chat-view").get_attribute("data-room-id")
        first.go("#/chats")

        second.go("#/discover")
        second.click(f'.channel-item[data-room-id="{room_id}"] button', "the channel in Discover")
        second.wait_for(lambda d: second.find_all(f'.chat-view[data-room-id="{room_id}"]'), "the joined channel")
        second.go("#/chats")
        self.wait_for_badge(second, room_id, None, "the channel in the list")

        api(self.base(), "POST", f"/rooms/{room_id}/join", token=talker["token"])
        members = next(c for c in api(self.base(), "GET", "/rooms/public", token=talker["token"]) if c["id"] == room_id)
        self.assertEqual(members["members"], 3)
        talk = self.socket(talker)
        for number in range(1, 4):
            talk.send_message(room_id, f"news {number}")

        self.wait_for_badge(first, room_id, "3", "3 unread for the owner")
        self.wait_for_badge(second, room_id, "3", "3 unread for the member")

        second.click(f'.chat-item[data-room-id="{room_id}"]', "the channel in the second user's list")
        self.wait_for_texts(second, ["news 1", "news 2", "news 3"], "the news in the channel")
        self.wait_for_badge(second, room_id, None, "the member's badge cleared")

        talk.send_message(room_id, "news 4")
        self.wait_for_badge(first, room_id, "4", "4 unread for the owner")
        self.wait_for_texts(second, ["news 1", "news 2", "news 3", "news 4"], "news 4 in the open channel")
        self.assertIsNone(self.badge(second, room_id), "an open chat does not count unread")

        first.click(f'.chat-item[data-room-id="{room_id}"]', "the channel in the first user's list")
        self.wait_for_texts(first, ["news 1", "news 2", "news 3", "news 4"], "the news for the owner")
        self.wait_for_badge(first, room_id, None, "the owner's badge cleared")

        first.driver.refresh()
        first.wait_for(lambda d: first.find_all(f'.chat-item[data-room-id="{room_id}"]'), "the list after a reload")
        self.assertIsNone(self.badge(first, room_id), "read state kept by the server")


class ReadStateTests(WebClientTestCase):
    """Issue 15, defect 1: a message is read only once it was on screen in a visible, focused page."""

    def test_gh15_messages_scrolled_away_from_are_not_marked_read(self):
        talker, viewer = self.user("talk"), self.user("view")
        room_id = self.direct_room(viewer, talker)
        seed(talker, room_id, 60)
        self.mark_read(viewer, room_id)
        page = self.signed_in(viewer)
        self.open_chat(page, room_id)
        page.wait_for(lambda d: (self.messages(page) or [{}])[-1].get("text") == "line 60", "the chat")
        page.wait_for(lambda d: self.scroll_state(page)["atBottom"], "the chat at the bottom")
        page.js("document.getElementById('messages').scrollTop -= 1500")
        page.wait_for(lambda d: not self.scroll_state(page)["atBottom"], "scrolled up")

        # act
        new_seqs = seed(talker, room_id, 3, prefix="unseen")
        page.wait_for(lambda d: self.messages(page)[-1]["text"] == "unseen 3", "the new messages in the list")
        page.wait_for(lambda d: self.scroll_state(page)["pill"], "the New messages pill")
        time.sleep(1.5)

        # validate
        self.assertLess(self.read_position(viewer, room_id), new_seqs[0], "messages nobody saw are not read")
        self.assertEqual(self.badge(page, room_id), "3")
        page.find("#new-messages-pill").click()
        page.wait_for(lambda d: self.read_position(viewer, room_id) == new_seqs[-1], "read once they were on screen")

    def test_gh15_a_chat_opens_at_the_first_unread_and_keeps_its_scroll_position(self):
        talker, viewer = self.user("talk"), self.user("view")
        room_id = self.direct_room(viewer, talker)
        other_id = self.channel(talker, unique_name("Other "), [viewer["user"]["username"]])["id"]
        seqs = seed(talker, room_id, 60)
        reader = self.socket(viewer)
        reader.send({"type": "read", "room": room_id, "seq": seqs[19]})
        reader.receive_until(lambda frame: frame.get("type") == "receipt" and frame.get("seq") == seqs[19])
        page = self.signed_in(viewer)
        self.open_chat(page, room_id)

        divider_js = ("const d = document.getElementById('unread-divider'); if (!d) return null;"
                      "const s = document.getElementById('messages').getBoundingClientRect();"
                      "const next = d.nextElementSibling;"
                      "return {top: d.getBoundingClientRect().top - s.top, text: d.textContent, next: next && Number(next.dataset.seq)};")
        page.wait_for(lambda d: page.js(divider_js), "the Unread messages divider")
        divider = page.js(divider_js)
        self.assertEqual(divider["text"], "Unread messages")
        self.assertEqual(divider["next"], seqs[20], "the divider sits above the first unread message")
        self.assertLess(abs(divider["top"]), 40, "the chat opens at the divider, not at the bottom")
        self.assertFalse(self.scroll_state(page)["atBottom"])
        page.wait_for(lambda d: self.read_position(viewer, room_id) > seqs[19], "what is on screen is read")
        self.assertLess(self.read_position(viewer, room_id), seqs[-1], "what is below the screen is not")

        # Issue 34: back to the first unread from anywhere in the chat.
        self.assertFalse(page.find("#jump-to-unread").is_displayed(), "no jump while the divider is in view")
        page.js("const s = document.getElementById('messages'); s.scrollTop = s.scrollHeight;")
        page.wait_for(lambda d: page.find("#jump-to-unread").is_displayed(), "the jump to the first unread")
        self.assertEqual(page.find("#jump-to-unread").text, "40 unread messages")
        page.find("#jump-to-unread").click()
        page.wait_for(lambda d: abs(page.js(divider_js)["top"]) < 40, "the divider at the top again")
        page.wait_for(lambda d: not page.find("#jump-to-unread").is_displayed(), "the jump gone")

        # The position is kept while the page lives: away to another chat and back.
        page.js("document.getElementById('messages').scrollTop -= 300")
        time.sleep(0.3)
        anchor_js = "return document.querySelector(`#messages [data-seq=\"${arguments[0]}\"]`).getBoundingClientRect().top;"
        before = page.js(anchor_js, seqs[15])
        self.open_chat(page, other_id)
        self.open_chat(page, room_id)
        page.wait_for(lambda d: abs(page.js(anchor_js, seqs[15]) - before) <= 2, "the same place as before")

    def test_gh34_a_page_reopened_on_a_chats_address_lands_at_the_first_unread(self):
        """Issue 34, defect 1: the page opened from its cached room list (0 unread), landed at the bottom and marked
        all 30 new messages read. On a desktop in English and on a phone in Chinese (phones reopen tabs this way)."""
        for phone, language, divider_text in ((False, "en", "Unread messages"), (True, "zh-CN", "以下为未读消息")):
            with self.subTest(phone=phone, language=language):
                self.reopen_on_the_chats_address(phone, language, divider_text)

    def reopen_on_the_chats_address(self, phone, language, divider_text):
        talker, viewer = self.user("talk"), self.user("view")
        room_id = self.direct_room(viewer, talker)
        old = seed(talker, room_id, 10, prefix="old")
        page = self.browser()
        page.open("#/chats")
        page.js("localStorage.setItem('swiftchat.language', arguments[0])", language)
        page.sign_in_with(viewer)
        if phone:
            page.set_viewport(390, 844, mobile=True)
        self.open_chat(page, room_id)
        page.wait_for(lambda d: self.read_position(viewer, room_id) == old[-1], "read to the end")
        time.sleep(1)  # the room list is cached half a second after it changes
        page.driver.get("about:blank")  # the tab is closed, or the phone drops it
        new = seed(talker, room_id, 30, prefix="new")
        page.open(f"#/chat/{room_id}")
        divider_js = ("const d = document.getElementById('unread-divider'); if (!d) return null;"
                      "const top = d.getBoundingClientRect().top - document.getElementById('messages').getBoundingClientRect().top;"
                      "return {text: d.textContent, next: Number(d.nextElementSibling.dataset.seq), top};")
        page.wait_for(lambda d: page.js(divider_js), "the Unread messages divider")
        page.wait_for(lambda d: abs(page.js(divider_js)["top"]) < 40, "the chat at the divider")
        divider = page.js(divider_js)
        self.assertEqual((divider["text"], divider["next"]), (divider_text, new[0]), "the divider above the first new message")
        self.assertFalse(self.scroll_state(page)["atBottom"], "not at the bottom")
        page.wait_for(lambda d: self.read_position(viewer, room_id) > old[-1], "what is on screen is read")
        time.sleep(0.5)
        self.assertLess(self.read_position(viewer, room_id), new[-1], "what is below the screen is not")

    def test_gh15_the_newest_messages_stay_in_view_when_the_keyboard_opens(self):
        talker, viewer = self.user("talk"), self.user("view")
        room_id = self.direct_room(viewer, talker)
        seed(talker, room_id, 40)
        self.mark_read(viewer, room_id)
        page = self.signed_in(viewer, width=390, height=844)
        page.set_viewport(390, 844, mobile=True)
        self.open_chat(page, room_id)
        page.wait_for(lambda d: (self.messages(page) or [{}])[-1].get("text") == "line 40", "the chat")
        page.wait_for(lambda d: self.scroll_state(page)["atBottom"], "the chat at the bottom")
        page.set_viewport(390, 520, mobile=True)  # what an on-screen keyboard does
        page.wait_for(lambda d: page.js("return window.innerHeight") == 520, "the smaller viewport")
        page.wait_for(lambda d: self.scroll_state(page)["atBottom"], "still at the bottom after the resize", timeout=5)
        bottom = page.js("return document.querySelector('#messages [data-seq]:last-of-type').getBoundingClientRect().bottom")
        self.assertLessEqual(bottom, page.js("return document.getElementById('composer').getBoundingClientRect().top") + 1)


class NotificationTests(WebClientTestCase):
    """Issue 15, notifications: desktop notifications turned on by a click, the icon's badge, per-chat mute."""

    def test_gh15_notifications_badge_and_mute(self):
        ann, bob = self.user("ann"), self.user("bob", "Bob Chen")
        dm = self.direct_room(ann, bob)
        quiet = self.channel(bob, unique_name("Quiet "), [ann["user"]["username"]])["id"]
        page = self.signed_in(ann)
        page.js(NOTIFICATION_RECORDER_JS)
        page.go("#/me")
        page.click("#notify-desktop", "Desktop notifications")
        page.wait_for(lambda d: page.find("#notify-desktop").is_selected(), "notifications on")
        page.click("#notify-sound", "Sound")
        self.assertTrue(page.find("#notify-sound").is_selected())
        self.assertEqual(page.console_errors(), "", "the sound plays without errors")

        self.open_chat(page, quiet)
        page.find("#room-info-button").click()
        page.find("label[for=notify-level-none]").click()
        page.wait_for(lambda d: page.find("#chat-pane .muted-mark").is_displayed(), "the chat set to notify of nothing")
        page.find("#room-info .dialog-close").click()
        page.go("#/chats")
        bob_socket = self.socket(bob)
        bob_socket.send_message(dm, "ping for ann")
        bob_socket.send_message(quiet, "muted news")
        page.wait_for(lambda d: page.js("return window.__notifications.length") >= 1, "a notification")
        time.sleep(0.5)
        self.assertEqual(page.js("return window.__notifications"), [{"title": "Bob Chen", "body": "ping for ann"}])
        icon = page.find('link[rel="icon"]')
        self.assertEqual(icon.get_attribute("data-count"), "1", "the muted chat does not count")
        self.assertTrue(icon.get_attribute("href").startswith("data:image/png"))
        self.assertEqual(page.driver.title, "(1) SwiftChat")
        self.assertIn("muted", page.find(f'.chat-item[data-room-id="{quiet}"] .badge').get_attribute("class"))


class LastSeenTests(WebClientTestCase):
    """Issue 15, defect 7: "last seen" in Contacts and chat headers. Issue 34, defect 6: a group's member list says
    the same as Contacts (it said "Offline" when it was opened first)."""

    def test_gh15_gh34_last_seen_reads_the_same_in_a_member_list_contacts_and_the_chat_header(self):
        viewer, bob = self.user("view"), self.user("bob", "Bob Seen")
        room_id = self.direct_room(viewer, bob)
        group_id = api(self.base(), "POST", "/rooms", {"kind": "group", "name": unique_name("Seen "),
                                                       "members": [bob["user"]["username"]]}, token=viewer["token"])["id"]
        bob_socket = WebSocketClient(self.base(), bob["token"])
        bob_socket.start()
        bob_socket.close()
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            details = api(self.base(), "GET", f"/users/{bob['user']['id']}", token=viewer["token"])
            if not details.get("online") and details.get("lastSeen"):
                break
            time.sleep(0.5)
        page = self.signed_in(viewer)
        self.open_chat(page, group_id)
        page.find("#room-info-button").click()
        member = f'#room-info-members .member-row[data-username="{bob["user"]["username"]}"] .member-detail'
        page.wait_for(lambda d: "last seen" in page.find(member).text, "last seen in the member list")
        in_members = page.find(member).text
        page.find("#room-info .dialog-close").click()
        page.go("#/contacts")
        page.find("#contacts-filter").send_keys(bob["user"]["username"])
        page.wait_for(lambda d: "last seen" in page.find(f'.contact-item[data-username="{bob["user"]["username"]}"] .contact-detail').text,
                      "last seen in Contacts")
        detail = page.find(f'.contact-item[data-username="{bob["user"]["username"]}"] .contact-detail').text
        self.assertRegex(detail, r"last seen (just now|\d+ min ago)$")
        self.assertEqual(in_members, detail, "the same words in both lists")
        self.open_chat(page, room_id)
        page.wait_for(lambda d: re.match(r"last seen (just now|\d+ min ago)$", page.find("#chat-subtitle").text), "last seen in the header")


if __name__ == "__main__":
    unittest.main()
