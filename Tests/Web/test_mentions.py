"""Mentions (issue 31): @ completion in the composer by keyboard and by click, the [Someone @ you] mark in the chat
list until the chat is read, mentions marked in bubbles, and Me → Mentions of me with its pages."""

from selenium.webdriver.common.keys import Keys

from harness import api, unique_name
from webcase import WebClientTestCase, seed
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)


SUGGESTIONS_JS = "return [...document.querySelectorAll('#mention-suggestions [role=option]')].map((o) => o.dataset.username)"
ACTIVE_SUGGESTION_JS = """
const box = document.getElementById('composer-input');
const active = box.getAttribute('aria-activedescendant');
return active ? document.getElementById(active).dataset.username : null;
"""


class MentionTestCase(WebClientTestCase):
    def group(self, owner, members, name=None):
        return api(self.base(), "POST", "/rooms", {"kind": "group", "name": name or unique_name("Tea "),
                                                   "members": [m["user"]["username"] for m in members]},
                   token=owner["token"])["id"]

    def suggestions(self, page):
        return page.js(SUGGESTIONS_JS)

    def mention_mark(self, page, room_id):
        return page.js("const mark = document.querySelector(`.chat-item[data-room-id=\"${arguments[0]}\"] .mention-mark`);"
                       "return mark ? mark.textContent : null;", room_id)


class CompletionTests(MentionTestCase):
    def test_gh31_at_suggests_the_chats_members_to_pick_by_keyboard_and_by_click(self):
        ann, bob, carol = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen"), self.user("carol", "Carol Wu")
        bob_name, carol_name = bob["user"]["username"], carol["user"]["username"]
        room_id = self.group(ann, [bob, carol])
        page = self.signed_in(ann)
        self.open_chat(page, room_id)
        box = page.find("#composer-input")

        # "@" alone offers everyone: @all first, then the members (not me) by username.
        box.send_keys("tea? @")
        page.wait_for(lambda d: self.suggestions(page) == ["all", bob_name, carol_name], "all, Bob and Carol suggested")
        self.assertEqual(page.find("#mention-suggestions").accessible_name, "People to mention")
        self.assertEqual(page.js(ACTIVE_SUGGESTION_JS), "all", "the first is highlighted")
        box.send_keys(Keys.ARROW_DOWN, Keys.ARROW_DOWN)
        self.assertEqual(page.js(ACTIVE_SUGGESTION_JS), carol_name)
        box.send_keys(Keys.ARROW_DOWN)
        self.assertEqual(page.js(ACTIVE_SUGGESTION_JS), "all", "↓ past the last goes round")
        box.send_keys(Keys.ARROW_UP, Keys.ENTER)
        self.assertEqual(box.get_attribute("value"), f"tea? @{carol_name} ", "Enter picks, and sends nothing")
        self.assertFalse(page.find("#mention-suggestions").is_displayed())
        self.assertEqual(self.messages(page), [])

        # Letters narrow the list (by username or display name); Tab picks too; Esc closes without picking.
        box.send_keys("and @bo")
        page.wait_for(lambda d: self.suggestions(page) == [bob_name], "only Bob for 'bo'")
        box.send_keys(Keys.TAB)
        self.assertEqual(box.get_attribute("value"), f"tea? @{carol_name} and @{bob_name} ")
        box.send_keys("@chen")
        page.wait_for(lambda d: self.suggestions(page) == [bob_name], "Bob by his display name")
        box.send_keys(Keys.ESCAPE)
        page.wait_for(lambda d: not page.find("#mention-suggestions").is_displayed(), "the suggestions closed")
        self.assertEqual(box.get_attribute("value"), f"tea? @{carol_name} and @{bob_name} @chen")
        box.send_keys(Keys.BACKSPACE * 5)

        # A click (or a tap) picks as well, and the text box keeps the focus.
        box.send_keys("@wu")
        page.wait_for(lambda d: self.suggestions(page) == [carol_name], "Carol for 'wu'")
        page.click(f'#mention-suggestions [data-username="{carol_name}"]', "Carol in the suggestions")
        self.assertEqual(box.get_attribute("value"), f"tea? @{carol_name} and @{bob_name} @{carol_name} ")
        self.assertTrue(page.js("return document.activeElement.id === 'composer-input'"))

        box.send_keys(Keys.ENTER)
        text = f"tea? @{carol_name} and @{bob_name} @{carol_name} "  # sent as typed, with the space a pick adds
        self.wait_for_texts(page, [text], "the message sent")
        sent = api(self.base(), "GET", f"/rooms/{room_id}/messages?limit=10", token=ann["token"])["messages"][-1]
        self.assertEqual(sorted(sent["mentions"]), sorted([bob["user"]["id"], carol["user"]["id"]]), "the server took both")
        # My own message marks the real mentions too (Carol's and Bob's names), though none is mine.
        page.wait_for(lambda d: page.texts("#messages .message.mine .mention")
                      == [f"@{carol_name}", f"@{bob_name}", f"@{carol_name}"], "the mentions marked in my bubble")
        self.assertEqual(page.find_all("#messages .mentions-me"), [])
        self.assert_no_alerts(page)


class MentionMarkTests(MentionTestCase):
    def test_gh31_a_mention_of_me_marks_the_chat_and_the_message_until_read(self):
        ann, bob, carol = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen"), self.user("carol", "Carol Wu")
        ann_name, carol_name = ann["user"]["username"], carol["user"]["username"]
        room_id = self.group(bob, [ann, carol])
        page = self.signed_in(ann)
        page.wait_for(lambda d: page.find_all(f'.chat-item[data-room-id="{room_id}"]'), "the group in the list")
        self.assertIsNone(self.mention_mark(page, room_id))

        talk = self.socket(bob)
        talk.send_message(room_id, f"@{ann_name}. the minutes, please")
        talk.send_message(room_id, f"thanks @{carol_name} (and mail@{ann_name}.example is no mention)")
        page.wait_for(lambda d: self.mention_mark(page, room_id) == "[Someone @ you]", "the mention mark in the list")
        self.wait_for_badge(page, room_id, "2", "two unread")
        rooms = api(self.base(), "GET", "/rooms", token=ann["token"])
        self.assertEqual(next(r for r in rooms if r["id"] == room_id)["mentionCount"], 1)

        page.click(f'.chat-item[data-room-id="{room_id}"]', "the group")
        self.wait_for_texts(page, [f"@{ann_name}. the minutes, please",
                                   f"thanks @{carol_name} (and mail@{ann_name}.example is no mention)"], "the messages")
        first, second = [m["seq"] for m in self.messages(page)]
        mine = self.message_node(page, first)
        self.assertIn("mentions-me", mine.find_element("css selector", ".bubble").get_attribute("class"))
        self.assertEqual([m.text for m in mine.find_elements("css selector", ".mention.mention-me")], [f"@{ann_name}"],
                         "the name marked without the full stop after it")
        # Someone else's mention is marked plainly (once the members are known), an e-mail address not at all.
        page.wait_for(lambda d: [m.text for m in self.message_node(page, second).find_elements("css selector", ".mention")]
                      == [f"@{carol_name}"], "Carol's mention marked")
        self.assertNotIn("mentions-me", self.message_node(page, second).find_element("css selector", ".bubble").get_attribute("class"))

        page.go("#/chats")
        page.wait_for(lambda d: self.mention_mark(page, room_id) is None, "the mark gone once read")
        self.wait_for_badge(page, room_id, None, "nothing unread")
        page.driver.refresh()
        page.wait_for(lambda d: page.find_all(f'.chat-item[data-room-id="{room_id}"]'), "the list after a reload")
        self.assertIsNone(self.mention_mark(page, room_id), "the server counts it read too")

        # @all mentions me as well; another device's read clears the mark here.
        talk.send_message(room_id, "@all lunch?")
        page.wait_for(lambda d: self.mention_mark(page, room_id) == "[Someone @ you]", "the mark for @all")
        self.mark_read(ann, room_id)
        page.wait_for(lambda d: self.mention_mark(page, room_id) is None, "the mark gone after reading elsewhere")
        self.assert_no_alerts(page)


class MentionsPageTests(MentionTestCase):
    def test_gh31_mentions_of_me_lists_them_page_by_page_and_opens_the_chat_at_one(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        ann_name = ann["user"]["username"]
        room_id = self.group(bob, [ann], name=unique_name("Desk "))
        seed(bob, room_id, 30, prefix="filler")
        seqs = seed(bob, room_id, 23, prefix=f"@{ann_name} question")
        page = self.signed_in(ann)
        page.go("#/me")
        page.click("#me-mentions-link", "Mentions of me")
        page.wait_for(lambda d: len(page.find_all("#mentions-list .mention-result")) == 20, "the first page")
        self.assertEqual(page.find("#topbar-title").text, "Mentions of me")
        first = page.find("#mentions-list .mention-result")
        self.assertEqual(first.get_attribute("data-seq"), str(seqs[-1]), "newest first")
        self.assertIn(f"Bob Chen · ", first.find_element("css selector", ".chat-item-name").text)
        page.click("#mentions-more", "Older mentions")
        page.wait_for(lambda d: len(page.find_all("#mentions-list .mention-result")) == 23, "all 23")
        self.assertFalse(page.find("#mentions-more").is_displayed(), "no more pages")

        oldest = page.find_all("#mentions-list .mention-result")[-1]
        self.assertEqual(oldest.get_attribute("data-seq"), str(seqs[0]))
        oldest.click()
        page.wait_for(lambda d: page.js("return document.activeElement?.closest('.message')?.dataset.seq") == str(seqs[0]),
                      "the chat open at that message")
        self.assertIn(f"#/chat/{room_id}/{seqs[0]}", page.driver.current_url)

    def test_gh31_mentions_of_me_says_when_there_are_none(self):
        page = self.signed_in(self.user("ann"))
        page.go("#/me/mentions")
        page.wait_for(lambda d: page.find("#mentions-list .empty-note").text == "Nobody has mentioned you yet.", "the empty note")
