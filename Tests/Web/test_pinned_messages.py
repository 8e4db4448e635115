"""Pinned messages (WeChat's 置顶 on a message; PROTOCOL.md §9.1 `pin`): Pin and Unpin in the message menu (a long
press on a phone, a right-click on a desktop) where I may pin, the pinned bar at the top of a chat for every member
(live, and after a reload) that jumps to each pin in turn and unpins, the centred lines in English and Chinese, and
the 50-pin limit said plainly."""

import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from harness import api, axe_violations
from webcase import WebClientTestCase, long_press, seed
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)

MAX_PINS = 50
# The server lets one account pin or unpin 20 times at once, then once every 3 s: a setup that pins more shares the
# pins out among several moderators.
PINS_AT_ONCE = 20

# The pinned bar as shown: null when hidden.
PINNED_BAR_JS = """
const bar = document.getElementById('pinned-bar');
if (!bar || bar.hidden) return null;
return {title: bar.querySelector('#pinned-bar-title').textContent, text: bar.querySelector('#pinned-bar-text').textContent,
        unpin: !bar.querySelector('#pinned-bar-unpin').hidden};
"""

LINES_JS = "return [...document.querySelectorAll('#messages .pin-line')].map((line) => line.textContent)"


class PinnedMessageTests(WebClientTestCase):
    def bar(self, page):
        return page.js(PINNED_BAR_JS)

    def wait_for_bar(self, page, title, text, what):
        try:
            page.wait_for(lambda d: (self.bar(page) or {}).get("title") == title and self.bar(page)["text"] == text, what)
        except AssertionError as error:
            self.fail(f"{error}\nthe bar shows {self.bar(page)!r}")

    def pin_lines(self, page):
        return page.js(LINES_JS)

    def wait_for_lines(self, page, lines, what):
        try:
            page.wait_for(lambda d: self.pin_lines(page) == lines, what)
        except AssertionError as error:
            self.fail(f"{error}\nthe lines are {self.pin_lines(page)!r}")

    def menu_actions(self, page):
        return page.js("return [...document.querySelectorAll('#message-menu .menu-item')].map((item) => item.dataset.action)")

    def pins(self, session, room_id):
        return [message["seq"] for message in api(self.base(), "GET", f"/rooms/{room_id}/pins", token=session["token"])["messages"]]

    def pin(self, session, room_id, seq):
        api(self.base(), "PUT", f"/rooms/{room_id}/messages/{seq}/pin", token=session["token"])

    def test_pin_by_a_long_press_on_a_phone_shows_the_bar_to_the_other_member_live_and_after_a_reload(self):
        # setup: Ann on a phone, Bob on a desktop, both in their direct chat
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        room_id = self.direct_room(ann, bob)
        bob_socket = self.socket(bob)
        first = bob_socket.send_message(room_id, "The door code is 4711")
        bob_socket.send_message(room_id, "See you at eight")
        phone = self.phone(ann)
        self.open_chat(phone, room_id)
        desktop = self.signed_in(bob)
        self.open_chat(desktop, room_id)
        self.wait_for_texts(desktop, ["The door code is 4711", "See you at eight"], "Bob's chat")
        self.assertIsNone(self.bar(desktop), "no bar without pins")

        # act: a long press on the door code, Pin
        phone.wait_for(lambda d: self.message_node(phone, first), "the message on the phone")
        long_press(phone, self.message_node(phone, first).find_element(By.CSS_SELECTOR, ".bubble"))
        phone.wait_for(lambda d: phone.find("#message-menu").is_displayed(), "the menu from a long press")
        self.assertIn("pin", self.menu_actions(phone))
        self.assertNotIn("unpin", self.menu_actions(phone))
        self.assertEqual(phone.find('#message-menu [data-action="pin"]').text, "Pin")
        phone.find('#message-menu [data-action="pin"]').click()

        # validate: pinned on the server, the bar and the line on both sides, Bob's live
        phone.wait_for(lambda d: self.pins(ann, room_id) == [first], "the pin on the server")
        self.wait_for_bar(phone, "Pinned message", "Bob Chen: The door code is 4711", "the bar on Ann's phone")
        self.wait_for_lines(phone, ["You pinned a message"], "Ann's line")
        self.wait_for_bar(desktop, "Pinned message", "You: The door code is 4711", "the bar on Bob's desktop, live")
        self.wait_for_lines(desktop, ["Ann Lee pinned a message"], "Bob's line")
        self.assertTrue(self.bar(desktop)["unpin"], "in a direct chat everyone may unpin")
        # the menu says Unpin now, on both sides
        self.open_message_menu(desktop, first)
        self.assertEqual(desktop.find('#message-menu [data-action="unpin"]').text, "Unpin")
        self.assertNotIn("pin", self.menu_actions(desktop))

        # a reload reads the pins from the server
        desktop.driver.refresh()
        self.open_chat(desktop, room_id)
        self.wait_for_bar(desktop, "Pinned message", "You: The door code is 4711", "the bar after a reload")
        self.wait_for_lines(desktop, ["Ann Lee pinned a message"], "the line after a reload")
        self.assert_no_alerts(phone, desktop)

    def test_a_right_click_pins_and_the_bar_jumps_through_the_pins_loading_history_then_unpins(self):
        # setup: a group with 120 messages; two old ones pinned (not in the newest page), then one by a right-click
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        room_id = api(self.base(), "POST", "/rooms", {"kind": "group", "name": "Pins", "members": [bob["user"]["username"]]},
                      token=ann["token"])["id"]
        seqs = seed(bob, room_id, 120)
        self.pin(bob, room_id, seqs[4])
        self.pin(bob, room_id, seqs[9])
        self.mark_read(ann, room_id)
        page = self.signed_in(ann)
        self.open_chat(page, room_id)
        self.wait_for_bar(page, "Pinned message · 1 of 2", "Bob Chen: line 10", "the most recent pin first")
        newest = seqs[-1]
        page.wait_for(lambda d: self.message_node(page, newest), "the newest message")

        # act: right-click the newest message, Pin
        ActionChains(page.driver).context_click(self.message_node(page, newest).find_element(By.CSS_SELECTOR, ".message-text")).perform()
        page.wait_for(lambda d: page.find("#message-menu").is_displayed(), "the menu from a right-click")
        page.find('#message-menu [data-action="pin"]').click()

        # validate: the new pin first; each press jumps to the shown pin (paging in what is not loaded) and shows the next
        self.wait_for_bar(page, "Pinned message · 1 of 3", "Bob Chen: line 120", "the new pin first")
        self.wait_for_lines(page, ["Bob Chen pinned a message"] * 2 + ["You pinned a message"], "the lines, mine last")
        self.assertEqual(axe_violations(page, "a chat with its pinned bar"), [])
        for text, seq, next_title, next_text in (("line 120", newest, "2 of 3", "line 10"),
                                                 ("line 10", seqs[9], "3 of 3", "line 5"),
                                                 ("line 5", seqs[4], "1 of 3", "line 120")):
            page.find("#pinned-bar-open").click()
            page.wait_for(lambda d: page.find_all(f'#messages .message.highlighted[data-seq="{seq}"][aria-current="true"]'), f"{text} in view")
            self.wait_for_bar(page, f"Pinned message · {next_title}", f"Bob Chen: {next_text}", f"the next pin after {text}")

        # act: ✕ unpins the shown pin (line 120)
        page.find("#pinned-bar-unpin").click()

        # validate
        self.wait_for_bar(page, "Pinned message · 1 of 2", "Bob Chen: line 10", "two pins left")
        self.assertEqual(self.pins(ann, room_id), [seqs[9], seqs[4]])
        self.assert_no_alerts(page)

    def test_edits_deletes_and_unpins_keep_the_bar_current_and_lines_speak_chinese(self):
        # setup: Ann reads in Chinese; Bob pins two messages, one of them older than what Ann's chat loads
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        room_id = api(self.base(), "POST", "/rooms", {"kind": "group", "name": "Pins", "members": [bob["user"]["username"]]},
                      token=ann["token"])["id"]
        bob_socket = self.socket(bob)
        old = bob_socket.send_message(room_id, "An old plan")
        seed(bob, room_id, 60, prefix="filler")
        plan = bob_socket.send_message(room_id, "Meet at the station")
        self.mark_read(ann, room_id)
        page = self.signed_in(ann)
        page.js("localStorage.setItem('swiftchat.language', 'zh-CN')")
        page.driver.refresh()
        self.open_chat(page, room_id)
        page.wait_for(lambda d: self.message_node(page, plan), "the newest message")
        self.assertFalse(page.find_all(f'#messages .message[data-seq="{old}"]'), "the old message is not loaded")

        # act and validate: pins of a loaded and of an unloaded message, both with their lines
        self.pin(bob, room_id, plan)
        self.wait_for_bar(page, "置顶消息", "Bob Chen: Meet at the station", "the pin, live")
        self.pin(bob, room_id, old)
        self.wait_for_bar(page, "置顶消息 · 1/2", "Bob Chen: An old plan", "a pin of a message not loaded here")
        self.wait_for_lines(page, ["Bob Chen置顶了一条消息", "Bob Chen置顶了一条消息"], "both lines")

        # an edit changes the bar's text; a delete takes the pin away
        bob_socket.request({"type": "edit", "room": room_id, "target": old, "text": "A new plan"})
        self.wait_for_bar(page, "置顶消息 · 1/2", "Bob Chen: A new plan", "the edited text")
        bob_socket.request({"type": "delete", "room": room_id, "target": old})
        self.wait_for_bar(page, "置顶消息", "Bob Chen: Meet at the station", "the deleted pin gone")

        # my unpin from the menu: its line, and no bar
        self.open_message_menu(page, plan)
        self.assertEqual(page.find('#message-menu [data-action="unpin"]').text, "取消置顶")
        page.find('#message-menu [data-action="unpin"]').click()
        page.wait_for(lambda d: self.bar(page) is None, "no bar once nothing is pinned")
        self.wait_for_lines(page, ["Bob Chen置顶了一条消息", "Bob Chen置顶了一条消息", "你取消置顶了一条消息"], "my unpin's line")
        self.assert_no_alerts(page)

    def test_in_a_channel_only_moderators_pin_and_the_fifty_pin_limit_is_said_in_a_note(self):
        # setup: Chloe's channel with Ann (a member) and Bob (a moderator); 50 messages pinned through the API by Chloe
        # and two more moderators, and one more message after them
        ann, bob, chloe = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen"), self.user("chloe", "Chloé Martin")
        helpers = [self.user("helper") for _ in range(MAX_PINS // PINS_AT_ONCE)]
        room_id = self.channel(chloe, "News", [person["user"]["username"] for person in [ann, bob, *helpers]])["id"]
        for moderator in [bob, *helpers]:
            api(self.base(), "PUT", f"/rooms/{room_id}/members/{moderator['user']['id']}/role", {"role": "moderator"},
                token=chloe["token"])
        pinners = [chloe, *helpers]
        for index, seq in enumerate(seed(chloe, room_id, MAX_PINS, prefix="news")):
            self.pin(pinners[index // PINS_AT_ONCE], room_id, seq)
        last = self.socket(chloe).send_message(room_id, "One more")
        self.mark_read(ann, room_id)
        self.mark_read(bob, room_id)

        # validate: the member sees the bar, but no Pin and no ✕
        member = self.signed_in(ann)
        self.open_chat(member, room_id)
        self.wait_for_bar(member, f"Pinned message · 1 of {MAX_PINS}", f"Chloé Martin: news {MAX_PINS}", "the bar for a member")
        self.assertFalse(self.bar(member)["unpin"], "a member of a channel does not unpin")
        self.open_message_menu(member, last)
        self.assertNotIn("pin", self.menu_actions(member))
        self.assertIn("reply", self.menu_actions(member))

        # act: the moderator pins the 51st
        moderator = self.signed_in(bob)
        self.open_chat(moderator, room_id)
        self.wait_for_bar(moderator, f"Pinned message · 1 of {MAX_PINS}", f"Chloé Martin: news {MAX_PINS}", "the bar for a moderator")
        self.assertTrue(self.bar(moderator)["unpin"], "a moderator unpins")
        self.choose_menu_item(moderator, last, "pin")

        # validate: the refusal in words, and nothing pinned
        moderator.wait_for(lambda d: moderator.find("#toast").is_displayed(), "the note")
        self.assertEqual(moderator.find("#toast").text, "This chat has 50 pinned messages already: unpin one first.")
        self.assertEqual(len(self.pins(bob, room_id)), MAX_PINS)
        self.assertNotIn(last, self.pins(bob, room_id))
        self.assert_no_alerts(member, moderator)


if __name__ == "__main__":
    unittest.main()
