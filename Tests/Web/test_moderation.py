"""Moderation in the web client (PROTOCOL.md §7.3, §7.4, §9.1): membership changes as centred lines of the chat,
messages a moderator removed, Report and a moderator's Delete in the message menu, roles, removals, bans and mutes
from the chat info, the composer of a muted member, and reports resolved from Administration → Reports."""

import os

from harness import api
from webcase import WebClientTestCase, seed
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)

LINES_JS = "return [...document.querySelectorAll('#messages .member-line')].map((line) => line.textContent)"
MUTED_NOTE = "A moderator muted you in this chat"


class ModerationTests(WebClientTestCase):
    def group(self, owner, name, members=()):
        return api(self.base(), "POST", "/rooms", {"kind": "group", "name": name, "members": list(members)},
                   token=owner["token"])

    def lines(self, page):
        return page.js(LINES_JS)

    def wait_for_lines(self, page, expected, what):
        try:
            page.wait_for(lambda d: self.lines(page) == expected, what)
        except AssertionError:
            self.fail(f"{what}: shown {self.lines(page)}")

    def open_info(self, page):
        page.click("#room-info-button", "the chat info button")
        page.wait_for(lambda d: page.find("#room-info").is_displayed(), "the chat info")

    def member_row(self, page, username):
        return f'#room-info-members .member-row[data-username="{username}"]'

    def test_membership_changes_show_as_lines_live_and_after_a_reload(self):
        # setup: Ann's group with Bob; Ann's page is open on it
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        carol, dan = self.user("carol", "Carol Wu"), self.user("dan", "Dan Park")
        room = self.group(ann, "Crew", [bob["user"]["username"]])
        room_id = room["id"]
        seed(ann, room_id, 1, "hello")
        page = self.signed_in(ann)
        self.open_chat(page, room_id)
        # act: Ann adds Carol and Dan, makes Bob a moderator, removes Dan; Carol leaves
        api(self.base(), "POST", f"/rooms/{room_id}/invite", {"username": carol["user"]["username"]}, token=ann["token"])
        api(self.base(), "POST", f"/rooms/{room_id}/invite", {"username": dan["user"]["username"]}, token=ann["token"])
        api(self.base(), "PUT", f"/rooms/{room_id}/members/{bob['user']['id']}/role", {"role": "moderator"}, token=ann["token"])
        api(self.base(), "DELETE", f"/rooms/{room_id}/members/{dan['user']['id']}", token=bob["token"])
        api(self.base(), "POST", f"/rooms/{room_id}/leave", token=carol["token"])
        # validate: live, in Ann's words, and again after a reload (from history)
        expected = ["You added Carol Wu", "You added Dan Park", "You made Bob Chen a moderator",
                    "Bob Chen removed Dan Park", "Carol Wu left"]
        self.wait_for_lines(page, expected, "the membership lines, live")
        self.assertEqual(self.badge(page, room_id), None, "membership lines are not unread")
        preview = page.find(f'.chat-item[data-room-id="{room_id}"] .chat-item-preview').text
        self.assertIn("hello 1", preview, "the chat list still previews the last message")
        page.driver.refresh()
        page.wait_for(lambda d: page.find_all("#composer-input"), "the chat after a reload")
        self.wait_for_lines(page, expected, "the membership lines, after a reload")
        # Bob's page (history only) sees them in his words
        bob_page = self.signed_in(bob)
        self.open_chat(bob_page, room_id)
        self.wait_for_lines(bob_page, ["Ann Lee added Carol Wu", "Ann Lee added Dan Park", "Ann Lee made you a moderator",
                                       "You removed Dan Park", "Carol Wu left"], "Bob's lines")
        if os.environ.get("SCREENSHOT_DIR"):
            bob_page.screenshot(os.path.join(os.environ["SCREENSHOT_DIR"], "desktop-light-member-lines.png"))
