"""Search: filtering the chat list, message search and how its results name people (with the typing line), and
more than twenty results."""

import unittest

from harness import unique_name
from webcase import WebClientTestCase, seed
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)


class SearchTests(WebClientTestCase):
    def test_search_filters_the_list_and_finds_messages(self):
        viewer, other = self.user("find"), self.user("said")
        room_name = unique_name("Garden ")
        room_id = self.channel(other, room_name, [viewer["user"]["username"]])["id"]
        word = unique_name("zucchini")
        self.socket(other).send_message(room_id, f"we planted {word} <b>today</b>")
        browser = self.signed_in(viewer)
        self.wait_for_badge(browser, room_id, "1", "the room in the list")

        browser.find("#chat-search").send_keys(room_name[:10])
        browser.wait_for(lambda d: [item.get_attribute("data-room-id") for item in browser.find_all(".chat-item")] == [room_id],
                         "the list filtered to the room")
        search = browser.find("#chat-search")
        search.clear()
        search.send_keys(word[:-2])
        browser.find("#search-messages").click()
        result = browser.wait_for(lambda d: browser.find("#search-results .search-result"), "a search result")
        self.assertTrue(browser.find("#search-results mark").text.lower().startswith(word[:-2].lower()))
        self.assertIn(word, result.text)
        self.assertIn("<b>today</b>", result.text)
        result.click()
        browser.wait_for(lambda d: browser.find_all(f'.chat-view[data-room-id="{room_id}"]'), "the chat of the result")


class NameTests(WebClientTestCase):
    """Issue 15, defect 6: display names everywhere, "You" for me, no repeated names, and more search results."""

    def test_gh15_typing_line_and_search_results_name_people_consistently(self):
        me = self.user("me", "Mia Moss")
        carol, dave = self.user("carol", "Carol Chen"), self.user("dave", "Dave Davis")
        team = self.channel(carol, unique_name("Team "), [me["user"]["username"]])["id"]
        dm = self.direct_room(me, dave)
        word = unique_name("kumquat")
        self.socket(me).send_message(dm, f"{word} from me")
        self.socket(dave).send_message(dm, f"{word} from dave")
        page = self.signed_in(me)
        self.open_chat(page, team)
        carol_socket = self.socket(carol)
        page.wait_for(lambda d: page.find(".topbar .status-light").get_attribute("data-state") == "online", "connected")

        def typing_shown(_):
            carol_socket.send({"type": "typing", "room": team})  # again: the server forwards one per 2 s at most
            try:
                page.wait_for(lambda d: page.find("#typing-line").text == "Carol Chen is typing…", "the typing line", timeout=2.5)
                return True
            except AssertionError:
                return False
        page.wait_for(typing_shown, "Carol's display name while typing")

        page.go("#/chats")
        page.find("#chat-search").send_keys(word)
        page.click("#search-messages", "the message search")
        page.wait_for(lambda d: len(page.find_all("#search-results .search-result")) == 2, "two results")
        # Issue 32: results are grouped by chat, so the chat's name heads its hits and each hit names its sender.
        self.assertEqual(page.texts("#search-results .search-group-name"), ["Dave Davis"])
        labels = sorted(page.texts("#search-results .search-result .chat-item-name"))
        self.assertEqual(labels, ["Dave Davis", "You"])
        self.assertEqual(page.find_all("#search-more"), [], "no More for two results")

    def test_gh15_search_offers_more_than_twenty_results(self):
        me, other = self.user("me"), self.user("other")
        room_id = self.direct_room(me, other)
        word = unique_name("plenty")
        seed(other, room_id, 25, prefix=word)
        page = self.signed_in(me)
        page.find("#chat-search").send_keys(word)
        page.click("#search-messages", "the message search")
        page.wait_for(lambda d: len(page.find_all("#search-results .search-result")) == 20, "the first 20 results")
        page.click("#search-more", "More results")
        page.wait_for(lambda d: len(page.find_all("#search-results .search-result")) == 25, "all 25 results")


if __name__ == "__main__":
    unittest.main()
