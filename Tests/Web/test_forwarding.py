"""Forwarding (issue 34's web half; PROTOCOL.md §7.6, WeChat's 转发): "Forward" in a message's menu and in the
selection bar opens a picker of my chats (searchable, several may be ticked); each message goes to each chosen chat,
one at a time in order, and shows there as "Forwarded from Bob" above its text, with its image linked by reference."""

import unittest

from harness import api, axe_violations, png_bytes
from webcase import WebClientTestCase
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)


# The forwarded label, text and loaded images of each message of the open chat, in order.
FORWARDED_JS = """
return [...document.querySelectorAll('#messages .message[data-seq]')].map((node) => ({
  label: node.querySelector('.forwarded-mark')?.textContent ?? null,
  text: node.querySelector('.message-text')?.textContent ?? '',
  images: [...node.querySelectorAll('img.attachment-image')].filter((image) => image.complete && image.naturalWidth > 0).length,
}));
"""


class ForwardingTests(WebClientTestCase):
    def forwarded(self, page):
        return page.js(FORWARDED_JS)

    def picker_rows(self, page):
        return [row.get_attribute("data-room-id") for row in page.find_all("#forward-chats .contact-item")]

    def test_gh34_forward_a_message_with_an_image_to_two_chats_from_its_menu(self):
        # setup: Bob sends Ann a picture with words; Ann also has a chat with Carol and a group
        ann, bob, carol = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen"), self.user("carol", "Carol Wu")
        from_bob = self.direct_room(ann, bob)
        with_carol = self.direct_room(ann, carol)
        team = api(self.base(), "POST", "/rooms", {"kind": "group", "name": "Ski team", "members": []}, token=ann["token"])["id"]
        attachment = api(self.base(), "POST", "/attachments?name=plan.png", raw=png_bytes(), content_type="image/png", token=bob["token"])
        seq = self.socket(bob).send_message(from_bob, "the plan is attached", attachments=[attachment["id"]])
        page = self.signed_in(ann)
        self.open_chat(page, from_bob)
        page.wait_for(lambda d: self.forwarded(page) and self.forwarded(page)[-1]["images"] == 1, "Bob's picture")

        # act: Forward from the message's menu; the search narrows the chats
        self.choose_menu_item(page, seq, "forward")
        page.wait_for(lambda d: page.find("#forward-picker").is_displayed(), "the forward picker")
        self.assertEqual(page.find("#forward-picker-title").text, "Forward to")
        self.assertEqual(page.js("return document.activeElement.id"), "forward-search")
        self.assertEqual(set(self.picker_rows(page)), {from_bob, with_carol, team, "lobby"}, "every chat of mine")
        self.assertFalse(page.find("#forward-send").is_enabled(), "nothing to send to yet")
        page.find("#forward-search").send_keys("ski")
        page.wait_for(lambda d: self.picker_rows(page) == [team], "only the group")
        for dark in (False, True):
            page.set_dark(dark)
            self.assertEqual(axe_violations(page, f"forward picker {'dark' if dark else 'light'}"), [])
        page.set_dark(False)
        page.click(f'#forward-chats [data-room-id="{team}"] input', "a chat to forward to")
        page.find("#forward-search").clear()
        page.find("#forward-search").send_keys("carol")
        page.wait_for(lambda d: self.picker_rows(page) == [with_carol], "only Carol's chat")
        page.click(f'#forward-chats [data-room-id="{with_carol}"] input', "a chat to forward to")
        self.assertEqual(page.find("#forward-chosen").text, "2 chosen")
        page.find("#forward-send").click()

        # validate: a note, and the copy in both chats with its author and its picture
        page.wait_for(lambda d: page.find("#toast").is_displayed() and page.find("#toast").text == "Forwarded.", "the note")
        self.assertFalse(page.find("#forward-picker").is_displayed())
        for room_id in (team, with_carol):
            history = api(self.base(), "GET", f"/rooms/{room_id}/messages?limit=10", token=ann["token"])["messages"]
            copy = [m for m in history if m.get("kind", "message") == "message"][-1]
            self.assertEqual((copy["text"], copy["forwardedFrom"]["id"], copy["sender"]["id"]),
                             ("the plan is attached", bob["user"]["id"], ann["user"]["id"]))
            self.assertEqual([a["id"] for a in copy["attachments"]], [attachment["id"]], "the image by reference")
        self.open_chat(page, team)
        page.wait_for(lambda d: self.forwarded(page) == [{"label": "Forwarded from Bob Chen", "text": "the plan is attached", "images": 1}],
                      "the forwarded message with its picture in the group")
        # Carol sees it too, from Bob; the label reads well on both bubbles, light and dark
        carol_page = self.signed_in(carol, dark=True)
        self.open_chat(carol_page, with_carol)
        carol_page.wait_for(lambda d: [m["label"] for m in self.forwarded(carol_page)] == ["Forwarded from Bob Chen"]
                            and self.forwarded(carol_page)[0]["images"] == 1, "the copy on Carol's side")
        for dark in (False, True):
            page.set_dark(dark)
            carol_page.set_dark(dark)
            scheme = "dark" if dark else "light"
            self.assertEqual(axe_violations(page, f"my forwarded message {scheme}") + axe_violations(carol_page, f"a forwarded message {scheme}"), [])
        self.assert_no_alerts(page, carol_page)

    def test_gh34_forward_a_selection_in_order_on_a_phone_in_chinese_and_say_what_failed(self):
        # setup: three messages from Bob; a channel where a moderator muted Ann (the server refuses a copy there)
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        from_bob = self.direct_room(ann, bob)
        notes = api(self.base(), "POST", "/rooms", {"kind": "group", "name": "笔记", "members": []}, token=ann["token"])["id"]
        quiet = self.channel(bob, "Quiet")["id"]
        api(self.base(), "POST", f"/rooms/{quiet}/join", token=ann["token"])
        api(self.base(), "PUT", f"/rooms/{quiet}/mutes/{ann['user']['id']}", token=bob["token"])
        bob_socket = self.socket(bob)
        seqs = [bob_socket.send_message(from_bob, text) for text in ("一", "二", "三")]
        page = self.browser(width=390, height=844)
        page.open("#/chats")
        page.js("localStorage.setItem('swiftchat.language', 'zh-CN')")
        page.sign_in_with(ann)
        page.set_viewport(390, 844, mobile=True)
        self.open_chat(page, from_bob)
        self.wait_for_texts(page, ["一", "二", "三"], "Bob's messages")

        # act: select the first and the third, Forward, to the notes
        self.choose_menu_item(page, seqs[2], "select")
        self.message_node(page, seqs[0]).click()
        page.wait_for(lambda d: page.find("#selection-count").text == "已选 2 条", "two selected")
        self.assertEqual(page.find("#selection-forward").text, "转发")
        page.find("#selection-forward").click()
        page.wait_for(lambda d: page.find("#forward-picker").is_displayed(), "the forward picker")
        self.assertEqual(page.find("#forward-picker-title").text, "转发给")
        self.assertFalse(page.find("#selection-bar").is_displayed(), "selecting ended")
        page.click(f'#forward-chats [data-room-id="{notes}"] input', "a chat to forward to")
        page.find("#forward-send").click()
        page.wait_for(lambda d: page.find("#toast").text == "已转发。", "the note in Chinese")
        self.open_chat(page, notes)
        page.wait_for(lambda d: self.forwarded(page) == [{"label": "转发自 Bob Chen", "text": text, "images": 0} for text in ("一", "三")],
                      "both copies, in order, from Bob")

        # act: forward into the channel where Ann is muted: the server's refusal is said
        self.open_chat(page, from_bob)
        self.wait_for_texts(page, ["一", "二", "三"], "Bob's messages again")
        self.choose_menu_item(page, seqs[1], "forward")
        page.wait_for(lambda d: page.find("#forward-picker").is_displayed(), "the forward picker")
        page.click(f'#forward-chats [data-room-id="{quiet}"] input', "a chat to forward to")
        page.find("#forward-send").click()
        page.wait_for(lambda d: page.find("#toast").is_displayed() and page.find("#toast").text.startswith("1 条未转发。Quiet："), "what failed")
        self.assertEqual(page.find("#toast").get_attribute("role"), "alert")
        self.assert_no_alerts(page)


if __name__ == "__main__":
    unittest.main()
