"""The web client in real browsers against the real server (see run.sh)."""

import json
import os
import tempfile
import time
import unittest

from selenium.webdriver.common.keys import Keys

from harness import (PASSWORD, REPO, TIMEOUT, ApiError, Browser, WebSocketClient, api, png_bytes, register,
                     start_server_from_env, unique_name)

server = None


def setUpModule():
    global server
    server = start_server_from_env()


def tearDownModule():
    if server:
        server.cleanup()


MESSAGES_JS = """
return [...document.querySelectorAll('#messages .message')].map((node) => ({
  seq: node.dataset.seq ? Number(node.dataset.seq) : null,
  text: node.querySelector('.message-text')?.textContent ?? '',
  mine: node.classList.contains('mine'),
  pending: node.classList.contains('pending'),
  failed: node.classList.contains('failed'),
  read: Boolean(node.querySelector('.read-receipt')),
  images: [...node.querySelectorAll('img.attachment-image')].map((image) => image.complete && image.naturalWidth > 0),
}));
"""


# Drops one image on the chat and pastes another into the composer, as a person would from another program.
DROP_AND_PASTE_IMAGES_JS = """
const done = arguments[arguments.length - 1];
const canvas = document.createElement('canvas');
canvas.width = 40;
canvas.height = 30;
canvas.getContext('2d').fillRect(0, 0, 40, 30);
canvas.toBlob((blob) => {
  const dropped = new DataTransfer();
  dropped.items.add(new File([blob], 'dropped.png', { type: 'image/png' }));
  document.querySelector('.chat-view').dispatchEvent(new DragEvent('drop', { dataTransfer: dropped, bubbles: true, cancelable: true }));
  const pasted = new DataTransfer();
  pasted.items.add(new File([blob], 'pasted.png', { type: 'image/png' }));
  document.getElementById('composer-input').dispatchEvent(new ClipboardEvent('paste', { clipboardData: pasted, bubbles: true, cancelable: true }));
  done();
}, 'image/png');
"""


class WebClientTestCase(unittest.TestCase):
    def base(self):
        return server.base_url

    def browser(self, **options):
        browser = Browser(self.base(), **options)
        self.addCleanup(browser.quit)
        return browser

    def user(self, prefix, display_name=None):
        return register(self.base(), unique_name(prefix), display_name)

    def signed_in(self, session, **options):
        browser = self.browser(**options)
        browser.sign_in_with(session)
        return browser

    def socket(self, session, rooms=None):
        client = WebSocketClient(self.base(), session["token"])
        self.addCleanup(client.close)
        client.start(rooms)
        return client

    def channel(self, owner, name, members=()):
        return api(self.base(), "POST", "/rooms", {"kind": "channel", "name": name, "members": list(members)},
                   token=owner["token"])

    # MARK: in the browser

    def register_in_ui(self, browser, username, display_name):
        browser.open("#/chats")
        browser.wait_for(lambda d: browser.find_all("#auth-form"), "the sign-in form")
        browser.find("#auth-switch").click()
        browser.find("#auth-username").send_keys(username)
        browser.find("#auth-password").send_keys(PASSWORD)
        browser.find("#auth-display-name").send_keys(display_name)
        browser.find("#auth-submit").click()
        browser.wait_for(lambda d: browser.find_all("#chat-list"), "the chat list after registering")

    def open_chat(self, browser, room_id):
        browser.go(f"#/chat/{room_id}")
        browser.wait_for(lambda d: browser.find_all(f'.chat-view[data-room-id="{room_id}"] #composer-input'), "the chat")

    def type_and_send(self, browser, text):
        box = browser.find("#composer-input")
        box.send_keys(text)
        box.send_keys(Keys.ENTER)

    def messages(self, browser):
        return browser.js(MESSAGES_JS)

    def wait_for_texts(self, browser, texts, what, delivered=True):
        """Waits until the chat shows exactly `texts` (in order), each delivered (with a seq) if asked."""
        def shown(_):
            messages = [m for m in self.messages(browser) if m["text"]]
            if [m["text"] for m in messages] != texts:
                return False
            return all(m["seq"] and not m["pending"] for m in messages) if delivered else True
        try:
            browser.wait_for(shown, what)
        except AssertionError:
            self.fail(f"{what}: shown {[(m['text'], m['seq'], m['pending']) for m in self.messages(browser)]}")

    def badge(self, browser, room_id):
        return browser.js(
            "const item = document.querySelector(`.chat-item[data-room-id=\"${arguments[0]}\"]`);"
            "if (!item) return 'missing';"
            "const badge = item.querySelector('.badge'); return badge ? badge.textContent : null;", room_id)

    def assert_no_alerts(self, *browsers):
        for browser in browsers:
            self.assertEqual(browser.alerts(), [], "a script ran")


class AccountTests(WebClientTestCase):
    def test_sign_in_errors_reload_profile_language_and_sign_out(self):
        taken = self.user("taken")
        browser = self.browser()
        browser.open("#/chats")
        browser.wait_for(lambda d: browser.find_all("#auth-form"), "the sign-in form")

        browser.find("#auth-switch").click()
        browser.find("#auth-username").send_keys(taken["user"]["username"].upper())
        browser.find("#auth-password").send_keys(PASSWORD)
        browser.find("#auth-submit").click()
        browser.wait_for(lambda d: browser.find("#auth-error").text == "That username is taken.", "the taken error")

        browser.find("#auth-switch").click()
        username = browser.find("#auth-username")
        username.clear()
        username.send_keys(taken["user"]["username"])
        browser.find("#auth-password").send_keys("wrong password")
        browser.find("#auth-submit").click()
        browser.wait_for(lambda d: browser.find("#auth-error").text == "Wrong username or password.", "the wrong-password error")

        password = browser.find("#auth-password")
        password.clear()
        password.send_keys(PASSWORD)
        browser.find("#auth-submit").click()
        browser.wait_for(lambda d: browser.find_all("#chat-list .chat-item"), "the chat list")

        browser.driver.refresh()
        browser.wait_for(lambda d: browser.find_all("#chat-list .chat-item"), "the chat list after a reload")
        self.assertEqual(browser.find_all("#auth-form"), [])

        browser.go("#/me")
        name = browser.wait_for(lambda d: browser.find("#display-name"), "the profile form")
        name.clear()
        name.send_keys("Renamed Person")
        browser.find("#profile-form button[type=submit]").click()
        browser.wait_for(lambda d: browser.find("#me-name").text == "Renamed Person", "the new display name")
        self.assertEqual(api(self.base(), "GET", "/me", token=taken["token"])["displayName"], "Renamed Person")
        browser.wait_for(lambda d: browser.find("#connection-text").text == "Connected", "the connection status")

        browser.js("const select = document.getElementById('language'); select.value = 'zh-CN';"
                   "select.dispatchEvent(new Event('change'));")
        browser.wait_for(lambda d: browser.find("#tab-chats").text.startswith("微信"), "Chinese tab labels")
        self.assertEqual(browser.find("#sign-out").text, "退出登录")
        browser.js("const select = document.getElementById('language'); select.value = 'en';"
                   "select.dispatchEvent(new Event('change'));")
        browser.wait_for(lambda d: browser.find("#tab-chats").text.startswith("Chats"), "English tab labels")

        token = json.loads(browser.js("return localStorage.getItem('swiftchat.session')"))["token"]
        browser.find("#sign-out").click()
        browser.wait_for(lambda d: browser.find_all("#auth-form"), "the sign-in form after signing out")
        browser.driver.refresh()
        browser.wait_for(lambda d: browser.find_all("#auth-form"), "the sign-in form after a reload")
        with self.assertRaises(ApiError) as revoked:
            api(self.base(), "GET", "/me", token=token)
        self.assertEqual(revoked.exception.status, 401)


class DirectChatTests(WebClientTestCase):
    def test_two_users_message_type_read_and_send_an_image(self):
        ann_name, bob_name = unique_name("ann"), unique_name("bob")
        ann = self.browser()
        self.register_in_ui(ann, ann_name, "Ann Lee")
        bob = self.browser()
        self.register_in_ui(bob, bob_name, "Bob Chen")

        ann.go("#/contacts")
        contact = ann.wait_for(lambda d: ann.find(f'.contact-item[data-username="{bob_name}"]'), "Bob in Contacts")
        contact.click()
        ann.wait_for(lambda d: ann.find_all(".chat-view #composer-input"), "the direct chat")
        room_id = ann.find(".chat-view").get_attribute("data-room-id")
        self.assertEqual(ann.find("#chat-title").text, "Bob Chen")

        self.type_and_send(ann, "Hi Bob!")
        self.wait_for_texts(ann, ["Hi Bob!"], "Ann's first message delivered")

        bob.wait_for(lambda d: self.badge(bob, room_id) == "1", "the new chat with an unread badge on Bob's side")
        bob.find(f'.chat-item[data-room-id="{room_id}"]').click()
        self.wait_for_texts(bob, ["Hi Bob!"], "Ann's message on Bob's side")
        bob.wait_for(lambda d: self.badge(bob, room_id) is None, "the badge cleared once Bob opened the chat")

        bob.find("#composer-input").send_keys("Hello")
        ann.wait_for(lambda d: "Bob Chen is typing" in ann.find("#typing-line").text, "Bob typing on Ann's side")
        self.type_and_send(bob, " Ann")
        self.wait_for_texts(ann, ["Hi Bob!", "Hello Ann"], "Bob's reply on Ann's side")
        ann.wait_for(lambda d: ann.find("#typing-line").text == "", "the typing line cleared by Bob's message")

        self.type_and_send(ann, "Are you there?")
        self.wait_for_texts(bob, ["Hi Bob!", "Hello Ann", "Are you there?"], "Ann's second message on Bob's side")

        def read_on_last(_):
            messages = self.messages(ann)
            return messages[-1]["text"] == "Are you there?" and messages[-1]["read"] \
                and sum(m["read"] for m in messages) == 1
        ann.wait_for(read_on_last, "'Read' under Ann's last message")

        image_path = os.path.join(tempfile.mkdtemp(), "green.png")
        with open(image_path, "wb") as file:
            file.write(png_bytes())
        ann.find(".chat-view input[type=file]").send_keys(image_path)

        def image_shown(browser):
            return lambda _: any(m["images"] == [True] for m in self.messages(browser) if m["seq"])
        bob.wait_for(image_shown(bob), "the image on Bob's side")
        ann.wait_for(image_shown(ann), "the image delivered on Ann's side")
        bob.find("#messages .image-button").click()
        bob.wait_for(lambda d: bob.js("return document.getElementById('image-viewer').open"), "the image viewer")
        bob.find("#image-viewer .viewer-close").click()

        # Dropping and pasting images send them too.
        bob.driver.execute_async_script(DROP_AND_PASTE_IMAGES_JS)

        def images_delivered(browser, count):
            return lambda _: sum(len(m["images"]) for m in self.messages(browser)
                                 if m["seq"] and all(m["images"])) == count
        ann.wait_for(images_delivered(ann, 3), "the dropped and pasted images on Ann's side")
        bob.wait_for(images_delivered(bob, 3), "the dropped and pasted images delivered on Bob's side")
        self.assert_no_alerts(ann, bob)


class NewcomerTests(WebClientTestCase):
    def test_a_newcomer_registers_and_chats_with_the_demo_bot(self):
        """Issue 5's first-start path: register in the page, find echo-bot under Contacts, get an answer."""
        browser = self.browser()
        self.register_in_ui(browser, unique_name("new"), "Newcomer")
        browser.go("#/contacts")
        bot = browser.wait_for(lambda d: browser.find_all('.contact-item[data-username="echo-bot"]'), "echo-bot in Contacts")
        bot[0].click()
        browser.wait_for(lambda d: browser.find_all(".chat-view #composer-input"), "the chat with echo-bot")
        self.type_and_send(browser, "I like you")
        self.wait_for_texts(browser, ["I like you", "you like I"], "echo-bot's answer")
        self.assert_no_alerts(browser)


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
        join = second.wait_for(lambda d: second.find(f'.channel-item[data-room-id="{room_id}"] button'), "the channel in Discover")
        join.click()
        second.wait_for(lambda d: second.find_all(f'.chat-view[data-room-id="{room_id}"]'), "the joined channel")
        second.go("#/chats")
        second.wait_for(lambda d: self.badge(second, room_id) is None, "the channel in the list")

        api(self.base(), "POST", f"/rooms/{room_id}/join", token=talker["token"])
        members = next(c for c in api(self.base(), "GET", "/rooms/public", token=talker["token"]) if c["id"] == room_id)
        self.assertEqual(members["members"], 3)
        talk = self.socket(talker)
        for number in range(1, 4):
            talk.send_message(room_id, f"news {number}")

        first.wait_for(lambda d: self.badge(first, room_id) == "3", "3 unread for the owner")
        second.wait_for(lambda d: self.badge(second, room_id) == "3", "3 unread for the member")

        second.find(f'.chat-item[data-room-id="{room_id}"]').click()
        self.wait_for_texts(second, ["news 1", "news 2", "news 3"], "the news in the channel")
        second.wait_for(lambda d: self.badge(second, room_id) is None, "the member's badge cleared")

        talk.send_message(room_id, "news 4")
        first.wait_for(lambda d: self.badge(first, room_id) == "4", "4 unread for the owner")
        self.wait_for_texts(second, ["news 1", "news 2", "news 3", "news 4"], "news 4 in the open channel")
        self.assertIsNone(self.badge(second, room_id), "an open chat does not count unread")

        first.find(f'.chat-item[data-room-id="{room_id}"]').click()
        self.wait_for_texts(first, ["news 1", "news 2", "news 3", "news 4"], "the news for the owner")
        first.wait_for(lambda d: self.badge(first, room_id) is None, "the owner's badge cleared")

        first.driver.refresh()
        first.wait_for(lambda d: first.find_all(f'.chat-item[data-room-id="{room_id}"]'), "the list after a reload")
        self.assertIsNone(self.badge(first, room_id), "read state kept by the server")


class ReconnectTests(WebClientTestCase):
    def test_server_restart_loses_nothing_and_duplicates_nothing(self):
        ann, bob = self.user("ann"), self.user("bob")
        room_id = self.channel(ann, unique_name("Ops "), [bob["user"]["username"]])["id"]
        sender = self.signed_in(ann)
        reader = self.signed_in(bob)
        sign_in_page = self.browser()
        sign_in_page.open("#/chats")
        sign_in_page.wait_for(lambda d: sign_in_page.find_all("#auth-form"), "the sign-in form")
        self.open_chat(sender, room_id)
        self.open_chat(reader, room_id)

        self.type_and_send(sender, "before 1")
        self.type_and_send(sender, "before 2")
        self.wait_for_texts(sender, ["before 1", "before 2"], "messages before the restart")
        self.wait_for_texts(reader, ["before 1", "before 2"], "messages before the restart, reader")

        server.stop()
        for browser in (sender, reader):
            browser.wait_for(lambda d: browser.find(".chat-view .status-light").get_attribute("data-state") != "online",
                             "the status light going grey")
        self.assertEqual(sender.find(".chat-view .status-light").value_of_css_property("background-color"),
                         sender.find(".topbar .status-light").value_of_css_property("background-color"))

        sign_in_page.find("#auth-username").send_keys(ann["user"]["username"])
        sign_in_page.find("#auth-password").send_keys(PASSWORD)
        sign_in_page.find("#auth-submit").click()
        sign_in_page.wait_for(lambda d: "Cannot reach the server" in sign_in_page.find("#auth-error").text,
                              "the unreachable error")

        self.type_and_send(sender, "queued 1")
        self.type_and_send(sender, "queued 2")
        self.wait_for_texts(sender, ["before 1", "before 2", "queued 1", "queued 2"], "queued messages shown", delivered=False)
        pending = [m["text"] for m in self.messages(sender) if m["pending"]]
        self.assertEqual(pending, ["queued 1", "queued 2"])

        server.start()
        sender.wait_for(lambda d: sender.find(".chat-view .status-light").get_attribute("data-state") == "online",
                        "the status light back on", timeout=TIMEOUT * 2)
        self.wait_for_texts(sender, ["before 1", "before 2", "queued 1", "queued 2"], "queued messages delivered once")
        self.wait_for_texts(reader, ["before 1", "before 2", "queued 1", "queued 2"], "queued messages received once")

        # The outbox and the draft survive the page going away while the server is down.
        server.stop()
        sender.wait_for(lambda d: sender.find(".chat-view .status-light").get_attribute("data-state") != "online",
                        "the status light going grey again")
        self.type_and_send(sender, "queued 3")
        sender.find("#composer-input").send_keys("half-written thought")
        self.wait_for_texts(sender, ["before 1", "before 2", "queued 1", "queued 2", "queued 3"], "queued 3 shown", delivered=False)
        sender.driver.get("about:blank")
        server.start()
        sender.open(f"#/chat/{room_id}")
        all_texts = ["before 1", "before 2", "queued 1", "queued 2", "queued 3"]
        self.wait_for_texts(sender, all_texts, "the queued message sent after a reload")
        self.wait_for_texts(reader, all_texts, "the queued message received once")
        self.assertEqual(sender.find("#composer-input").get_attribute("value"), "half-written thought")

        history = api(self.base(), "GET", f"/rooms/{room_id}/messages?limit=50", token=bob["token"])
        self.assertEqual([m["text"] for m in history["messages"] if m.get("kind", "message") == "message"], all_texts)


class HistoryTests(WebClientTestCase):
    def test_scrolling_up_loads_200_messages_in_order_without_jumping(self):
        seeder, viewer = self.user("seed"), self.user("view")
        room_id = self.channel(seeder, unique_name("History "), [viewer["user"]["username"]])["id"]
        seeding = self.socket(seeder)
        for number in range(1, 201):
            seeding.send_message(room_id, f"message {number}")

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


class SafetyTests(WebClientTestCase):
    def test_markup_in_messages_and_names_is_shown_as_text(self):
        viewer = self.user("safe")
        evil_name = '<img src=x onerror=alert("name")>'
        attacker = self.user("evil", evil_name)
        attacker_username = attacker["user"]["username"]
        room_name = '<b onmouseover=alert("room")>Room</b>'
        room_id = self.channel(attacker, room_name, [viewer["user"]["username"]])["id"]
        browser = self.signed_in(viewer)
        payload = "<img src=x onerror=alert(1)>"
        self.socket(attacker).send_message(room_id, payload)

        browser.wait_for(lambda d: self.badge(browser, room_id) == "1", "the message in the list")
        browser.wait_for(
            lambda d: browser.find(f'.chat-item[data-room-id="{room_id}"] .chat-item-preview').text == f"{evil_name}: {payload}",
            "the preview naming the sender by display name, as text")
        self.assertEqual(browser.find(f'.chat-item[data-room-id="{room_id}"] .chat-item-name').text, room_name)
        self.open_chat(browser, room_id)
        self.type_and_send(browser, "<script>alert(2)</script>")
        self.wait_for_texts(browser, [payload, "<script>alert(2)</script>"], "both payloads as text")
        self.assertEqual(browser.find("#chat-title").text, room_name)
        self.assertEqual(browser.find("#messages .message-sender").text, evil_name)

        browser.go("#/contacts")
        browser.find("#contacts-filter").send_keys(attacker_username)
        browser.wait_for(lambda d: [item.text for item in browser.find_all(".contact-item .contact-name")] == [evil_name],
                         "the display name as text in Contacts")
        self.assertEqual(browser.find_all('img[src="x"]'), [])
        self.assertEqual(browser.find_all("#app script, #app b"), [])
        self.assert_no_alerts(browser)


class SearchTests(WebClientTestCase):
    def test_search_filters_the_list_and_finds_messages(self):
        viewer, other = self.user("find"), self.user("said")
        room_name = unique_name("Garden ")
        room_id = self.channel(other, room_name, [viewer["user"]["username"]])["id"]
        word = unique_name("zucchini")
        self.socket(other).send_message(room_id, f"we planted {word} <b>today</b>")
        browser = self.signed_in(viewer)
        browser.wait_for(lambda d: self.badge(browser, room_id) == "1", "the room in the list")

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


class EchoToolTests(WebClientTestCase):
    def test_echo_page_connects_sends_and_logs(self):
        browser = self.browser()
        browser.driver.get(f"{self.base()}/tools/echo.html")
        browser.wait_for(lambda d: browser.find("#status-light").get_attribute("data-state") == "online", "the echo connection")
        message = browser.find("#message")
        message.clear()
        message.send_keys("ping from the test")
        browser.find("#send-button").click()
        browser.wait_for(lambda d: any("ping from the test" in entry.text for entry in browser.find_all("#log .log-in")),
                         "the echoed message in the log")
        browser.js("document.getElementById('star-sign').value = '4'")
        browser.find("#send-button").click()
        browser.wait_for(lambda d: any("♌ leo: ping from the test" in entry.text for entry in browser.find_all("#log .log-in")),
                         "the star-sign message decoded")


class ScreenshotTests(WebClientTestCase):
    """Not an assertion of looks: it saves what a person would see, for docs/screenshots and for review."""

    def test_screenshots(self):
        out = os.environ.get("SCREENSHOT_DIR", os.path.join(REPO, "docs", "screenshots"))
        ann = register(self.base(), unique_name("ann"), "Ann Lee")
        bob = register(self.base(), unique_name("bob"), "Bob Chen")
        chloe = register(self.base(), unique_name("chloe"), "Chloé Martin")
        dm = api(self.base(), "POST", "/dms", {"username": bob["user"]["username"]}, token=ann["token"])["id"]
        team = self.channel(chloe, "Design team", [ann["user"]["username"], bob["user"]["username"]])["id"]
        trip = self.channel(bob, "Weekend trip", [ann["user"]["username"]])["id"]

        ann_socket, bob_socket, chloe_socket = self.socket(ann), self.socket(bob), self.socket(chloe)
        chloe_socket.send_message(team, "The new icons are in the shared folder.")
        bob_socket.send_message(team, "Looks great! I'll review them after lunch.")
        bob_socket.send_message(trip, "Train tickets are booked 🚆")
        ann_socket.send_message(dm, "Hi Bob! Are we still on for dinner tonight?")
        time_seq = bob_socket.send_message(dm, "Yes! 7 pm at the usual place?")
        ann_socket.request({"type": "react", "room": dm, "target": time_seq, "emoji": "👍"})
        attachment = api(self.base(), "POST", "/attachments?name=view.png", raw=png_bytes(320, 200, (120, 170, 230)),
                         content_type="image/png", token=bob["token"])
        bob_socket.send_message(dm, "", attachments=[attachment["id"]])
        bob_socket.send_message(dm, "Here's the view from the terrace 😊")
        booked_seq = ann_socket.send_message(dm, "Perfect. I'll book a table for three.")
        bob_socket.send_message(dm, "Great, see you there!", replyTo=booked_seq)
        chloe_socket.send_message(team, "Standup moved to 10:30 tomorrow.")

        browser = self.signed_in(ann)
        for dark in (False, True):
            scheme = "dark" if dark else "light"
            browser.set_dark(dark)
            for device, (width, height, mobile) in {"phone": (390, 844, True), "desktop": (1280, 800, False)}.items():
                browser.set_viewport(width, height, mobile)
                browser.go("#/chats")
                browser.wait_for(lambda d: len(browser.find_all(".chat-item")) >= 4, "the chat list")
                browser.js("document.activeElement?.blur()")
                browser.screenshot(os.path.join(out, f"{device}-{scheme}-chats.png"))
                self.open_chat(browser, dm)
                browser.wait_for(lambda d: len(self.messages(browser)) >= 5 and all(
                    all(self.messages(browser)[i]["images"]) for i in range(len(self.messages(browser)))), "the open chat")
                browser.js("document.activeElement?.blur(); const s = document.getElementById('messages');"
                           "s.scrollTop = s.scrollHeight;")
                browser.screenshot(os.path.join(out, f"{device}-{scheme}-chat.png"))
        self.assert_no_alerts(browser)


if __name__ == "__main__":
    unittest.main()
