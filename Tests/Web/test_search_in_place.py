"""Issue 32 in the web client: search in every script (the shared fixture, through a chat's "Search chat history"),
filter chips, a malformed filter's message from the server, results grouped by chat with the matches highlighted, and
opening a hit in place (the page around it, paging up and down, back to live without losing or repeating messages)."""

import json
import os
import unittest
from urllib.parse import quote

from selenium.webdriver.common.keys import Keys

from harness import REPO, ApiError, WebSocketClient, api, unique_name
from webcase import WebClientTestCase, seed
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)

FIXTURE = os.path.join(REPO, "Tests", "Fixtures", "search", "scripts.json")
# What the snippet highlights for these queries: exactly the characters typed, inside a run of CJK or Thai too.
HIGHLIGHTS = {"开会": ["开会"], "讨论预算": ["讨论预算"], "会議": ["会議"], "회의": ["회의"], "พรุ่งนี้": ["พรุ่งนี้"]}

RESULTS_JS = """
const output = document.querySelector(arguments[0]);
if (!output || output.getAttribute('aria-busy') !== 'false') return null;
return [...output.querySelectorAll('.search-result')].map((hit) => ({
  seq: Number(hit.dataset.seq),
  room: hit.dataset.roomId,
  snippet: hit.querySelector('.search-result-snippet').textContent,
  marks: [...hit.querySelectorAll('mark')].map((mark) => mark.textContent),
  sender: hit.querySelector('.chat-item-name').textContent,
}));
"""


class SearchInPlaceTests(WebClientTestCase):
    def results(self, browser, where):
        return browser.js(RESULTS_JS, where)

    def search_history(self, browser, query):
        """Types `query` into the open chat's history search and waits for its answer: the hits, or the error shown."""
        box = browser.find("#history-search-input")
        box.clear()
        box.send_keys(query)
        box.send_keys(Keys.ENTER)
        browser.wait_for(lambda d: browser.find("#history-search .search-output").get_attribute("aria-busy") == "false"
                         and browser.find("#history-search-input").get_attribute("value") == query, f"the answer to {query!r}")
        return self.results(browser, "#history-search .search-output")

    def open_history_search(self, browser, room_id):
        self.open_chat(browser, room_id)
        browser.click("#history-search-button", "Search chat history")
        browser.wait_for(lambda d: browser.find("#history-search").is_displayed(), "the history search")

    def search_everywhere(self, browser, query):
        """Searches every chat from the Chats tab for `query` and waits for the answer to it."""
        box = browser.find("#chat-search")
        box.clear()
        box.send_keys(query)
        browser.click("#search-messages", f"the message search for {query!r}")
        browser.wait_for(lambda d: self.results(browser, ".chats-view .search-output") is not None, f"the answer to {query!r}")
        return self.results(browser, ".chats-view .search-output")

    def test_gh32_every_script_is_found_with_its_matches_highlighted(self):
        """The fixture the server's tests share (one sender, one room), every query through the Chats tab's search."""
        fixture = json.load(open(FIXTURE, encoding="utf-8"))
        ann = self.user("ann")
        room_id = self.channel(ann, unique_name("Scripts "))["id"]
        socket = WebSocketClient(self.base(), ann["token"])
        socket.start()
        try:
            seq_of = {socket.send_message(room_id, message["text"]): message["key"] for message in fixture["messages"]}
        finally:
            socket.close()
        text_of = {message["key"]: message["text"] for message in fixture["messages"]}
        browser = self.signed_in(ann)
        for query in fixture["queries"]:
            hits = self.search_everywhere(browser, query["q"])
            with self.subTest(q=query["q"]):
                self.assertTrue(all(hit["room"] == room_id for hit in hits), "only the room's messages")
                self.assertEqual(sorted(seq_of[hit["seq"]] for hit in hits), sorted(query["hits"]))
                for hit in hits:
                    self.assertEqual(hit["snippet"], text_of[seq_of[hit["seq"]]], "a short text shows whole")
                    self.assertTrue(hit["marks"], "something is highlighted")
                    self.assertTrue(all(mark in hit["snippet"] for mark in hit["marks"]))
                if query["q"] in HIGHLIGHTS:
                    self.assertEqual(hits[0]["marks"], HIGHLIGHTS[query["q"]])
        self.assert_no_alerts(browser)

    def test_gh32_chips_narrow_results_and_a_malformed_filter_shows_why(self):
        me, ann, bob = self.user("me"), self.user("ann", "Ann Lee"), self.user("bob", "Bob Ray")
        design = self.channel(ann, unique_name("Design "), [me["user"]["username"], bob["user"]["username"]])["id"]
        other = self.channel(me, unique_name("Other "))["id"]
        word = unique_name("mockup")
        ann_socket, bob_socket, my_socket = self.socket(ann), self.socket(bob), self.socket(me)
        plain = ann_socket.send_message(design, f"{word} from ann")
        linked = ann_socket.send_message(design, f"{word} at https://example.com/{word}")
        bobs = bob_socket.send_message(design, f"{word} from bob")
        elsewhere = my_socket.send_message(other, f"{word} elsewhere")
        page = self.signed_in(me)
        page.find("#chat-search").send_keys(word)
        page.click("#search-messages", "the message search")

        def shown(expected):
            page.wait_for(lambda d: sorted(hit["seq"] for hit in self.results(page, ".chats-view .search-output") or []) == sorted(expected),
                          f"the hits {expected}")
        shown([plain, linked, bobs, elsewhere])
        # Grouped by chat, newest first: my own chat's hit came last, so its group comes first.
        self.assertEqual([node.get_attribute("data-room-id") for node in page.find_all("#search-results .search-group")], [other, design])
        self.assertEqual([hit["seq"] for hit in self.results(page, ".chats-view .search-output")], [elsewhere, bobs, linked, plain])

        page.click("#search-has-link", "Has link")
        shown([linked])
        self.assertEqual(page.find("#search-has-link").get_attribute("aria-pressed"), "true")
        page.click("#search-has-link", "Has link again: removed")
        shown([plain, linked, bobs, elsewhere])

        page.click("#search-from", "From")
        page.find("#search-from-input").send_keys(ann["user"]["username"])
        page.click(f'#search-people .search-person[data-username="{ann["user"]["username"]}"]', "Ann in the people search")
        shown([plain, linked])
        self.assertEqual(page.find("#search-from").text, "From Ann Lee")
        page.click("#search-from-remove", "remove the From chip")
        shown([plain, linked, bobs, elsewhere])

        # A malformed filter typed in the field: the server's own words, not a silent nothing.
        search = page.find("#chat-search")
        search.clear()
        search.send_keys(f"{word} has:video")
        page.click("#search-messages", "the message search")
        error = page.wait_for(lambda d: page.find_all("#search-error"), "the refusal")[0]
        with self.assertRaises(ApiError) as refusal:
            api(self.base(), "GET", f"/search?q={quote(word + ' has:video')}", token=me["token"])
        self.assertEqual(json.loads(refusal.exception.body)["code"], "invalid_query")
        self.assertEqual(error.text, json.loads(refusal.exception.body)["message"])
        self.assertIn("video", error.text)
        self.assert_no_alerts(page)

    def test_gh32_chat_history_search_finds_only_that_chat(self):
        me, other = self.user("me"), self.user("other")
        here = self.direct_room(me, other)
        there = self.channel(me, unique_name("There "))["id"]
        word = unique_name("lantern")
        socket = self.socket(me)
        mine_here = socket.send_message(here, f"{word} here")
        socket.send_message(there, f"{word} there")
        page = self.signed_in(me)
        self.open_history_search(page, here)
        hits = self.search_history(page, word)
        self.assertEqual([(hit["seq"], hit["room"]) for hit in hits], [(mine_here, here)])
        self.assertEqual(hits[0]["sender"], "You")
        page.find_all("#history-search .search-result")[0].click()
        page.wait_for(lambda d: not page.find("#history-search").is_displayed(), "the search closed")
        page.wait_for(lambda d: page.find_all(f'#messages .message.highlighted[data-seq="{mine_here}"][aria-current="true"]'), "the hit outlined")

    def test_gh32_a_hit_opens_in_place_and_pages_both_ways_then_goes_live(self):
        me, talker = self.user("me"), self.user("talker")
        room_id = self.direct_room(me, talker)
        word = unique_name("needle")
        seqs = seed(talker, room_id, 30, prefix="before")
        needle = self.socket(talker).send_message(room_id, f"the {word} is here")
        seqs += [needle] + seed(talker, room_id, 90, prefix="after")
        expected = {seq: text for seq, text in zip(seqs, [f"before {n}" for n in range(1, 31)] + [f"the {word} is here"] + [f"after {n}" for n in range(1, 91)])}
        page = self.signed_in(me)
        page.find("#chat-search").send_keys(word)
        page.click("#search-messages", "the message search")
        page.wait_for(lambda d: page.find_all("#search-results .search-result"), "the hit")
        page.find_all("#search-results .search-result")[0].click()
        page.wait_for(lambda d: page.find_all(f'#messages .message.highlighted[data-seq="{needle}"][aria-current="true"]'), "the hit outlined")
        shown = self.messages(page)
        self.assertIn(needle, [m["seq"] for m in shown])
        self.assertLess(max(m["seq"] for m in shown), seqs[-1], "opened in place, not at the newest")
        self.assertTrue(page.find("#latest-button").is_displayed(), "Back to latest is offered")
        position = page.js("const s = document.getElementById('messages'); const n = s.querySelector(`[data-seq=\"${arguments[0]}\"]`);"
                           "const a = s.getBoundingClientRect(), b = n.getBoundingClientRect();"
                           "return (b.top + b.bottom) / 2 - a.top - a.height / 2;", needle)
        self.assertLess(abs(position), 120, "the hit is in the middle of the list")

        # Meanwhile a live message arrives: it must not show in the detached window, and must show once at the end.
        live = self.socket(talker).send_message(room_id, f"live {word}")
        expected[live] = f"live {word}"

        def contiguous(_):
            shown = self.messages(page)
            seqs_shown = [m["seq"] for m in shown]
            self.assertEqual(seqs_shown, sorted(set(seqs_shown)), "no duplicates, in order")
            self.assertTrue(all(expected[m["seq"]] == m["text"] for m in shown))
            self.assertEqual(seqs_shown, [seq for seq in sorted(expected) if seqs_shown[0] <= seq <= seqs_shown[-1]], "no gap")
            return shown

        def scrolled_to(top):
            page.js(f"const s = document.getElementById('messages'); s.scrollTop = {'0' if top else 's.scrollHeight'};")
            return contiguous(None)

        page.wait_for(lambda d: scrolled_to(top=True)[0]["seq"] == seqs[0], "older pages up to the first message")
        page.wait_for(lambda d: scrolled_to(top=False)[-1]["seq"] == live, "newer pages down to the live message")
        page.wait_for(lambda d: not page.find("#latest-button").is_displayed(), "live again")
        self.assertEqual([m["text"] for m in contiguous(None)].count(f"live {word}"), 1)
        again = self.socket(talker).send_message(room_id, f"again {word}")
        expected[again] = f"again {word}"
        page.wait_for(lambda d: contiguous(None)[-1]["seq"] == again, "a live message follows at the end")
        self.assert_no_alerts(page)

    def test_gh32_back_to_latest_from_a_hit(self):
        me, talker = self.user("me"), self.user("talker")
        room_id = self.direct_room(me, talker)
        word = unique_name("pebble")
        needle = self.socket(talker).send_message(room_id, f"{word} early")
        seqs = seed(talker, room_id, 70, prefix="more")
        page = self.signed_in(me)
        page.go(f"#/chat/{room_id}/{needle}")
        page.wait_for(lambda d: page.find_all(f'#messages .message.highlighted[data-seq="{needle}"]'), "the message outlined")
        live = self.socket(talker).send_message(room_id, f"{word} live")
        page.click("#latest-button", "Back to latest")
        page.wait_for(lambda d: [m["seq"] for m in self.messages(page)][-2:] == [seqs[-1], live], "the newest messages, the live one once")
        self.assertEqual([m["text"] for m in self.messages(page)].count(f"{word} live"), 1)

    def test_gh32_screenshot_of_results_with_chinese_highlights(self):
        out = os.environ.get("SCREENSHOT_DIR", os.path.join(REPO, "docs", "screenshots"))
        me, ann = self.user("me", "Mia Moss"), self.user("ann", "Ann Lee")
        team = self.channel(ann, "设计组", [me["user"]["username"]])["id"]
        dm = self.direct_room(me, ann)
        ann_socket = self.socket(ann)
        ann_socket.send_message(team, "我们明天开会讨论预算")
        ann_socket.send_message(team, "预算已经批准了，下周开始")
        ann_socket.send_message(dm, "周五前把预算表发给我")
        page = self.signed_in(me, width=1100, height=760)
        page.find("#chat-search").send_keys("预算")
        page.click("#search-messages", "the message search")
        page.wait_for(lambda d: len(page.find_all("#search-results .search-result")) == 3, "three hits")
        self.assertEqual(page.texts("#search-results mark"), ["预算"] * 3)
        page.screenshot(os.path.join(out, "desktop-light-search.png"))


if __name__ == "__main__":
    unittest.main()
