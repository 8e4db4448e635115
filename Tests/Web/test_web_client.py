"""The web client in real browsers against the real server (see run.sh)."""

import json
import os
import re
import socket
import tempfile
import time
import unittest
import urllib.request
import uuid

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from harness import (PASSWORD, REPO, TIMEOUT, ApiError, Browser, WebSocketClient, api, axe_violations, png_bytes,
                     register, start_server_from_env, unique_name)

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


# Records every acknowledged frame the page sends (window.__sentFrames) and, when the test arms window.__sabotage
# with a frame type, sends the next frame of that type to a room that does not exist instead: the server refuses it
# (forbidden), which is a failure the outbox cannot retry by itself. The outbox keeps the original frame, so a Retry
# sends the real one.
FRAME_RECORDER_JS = """
if (!window.__sentFrames) {
  window.__sentFrames = [];
  window.__sabotage = null;
  const originalSend = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    let frame = null;
    try { frame = JSON.parse(data); } catch (error) { frame = null; }
    if (frame && frame.clientMsgID) {
      window.__sentFrames.push(frame);
      if (window.__sabotage && frame.type === window.__sabotage.type) {
        data = JSON.stringify({ ...frame, room: window.__sabotage.room });
        window.__sabotage = null;
      }
    }
    return originalSend.call(this, data);
  };
}
"""


def arm_sabotage(browser, frame_type):
    browser.js("window.__sabotage = {type: arguments[0], room: arguments[1]}", frame_type, str(uuid.uuid4()).upper())


# Formats fixed instants with the page's own time.js against a fixed "now", in English and in Chinese.
TIME_FORMATS_JS = """
const done = arguments[arguments.length - 1];
Promise.all([import('/js/time.js'), import('/js/strings.js')]).then(([time, strings]) => {
  const now = new Date(2025, 0, 15, 18, 0).getTime(); // a Wednesday
  const instants = {
    today: new Date(2025, 0, 15, 13, 53).getTime(),
    yesterday: new Date(2025, 0, 14, 23, 59).getTime(),
    sunday: new Date(2025, 0, 12, 9, 0).getTime(),
    sameYear: new Date(2025, 0, 2, 9, 0).getTime(),
    lastYear: new Date(2024, 10, 2, 9, 0).getTime(),
  };
  const format = () => Object.fromEntries(Object.entries(instants).map(([name, ms]) => [name, time.formatListTime(ms, now)]));
  const before = strings.currentLanguage();
  strings.setLanguage('en');
  const english = format();
  const todayLabel = time.formatDayLabel(instants.today, now);
  strings.setLanguage('zh-CN');
  const chinese = format();
  strings.setLanguage(before);
  done({ english, chinese, todayLabel });
}, (error) => done({ error: String(error) }));
"""


def close_app_tab(browser):
    """Closes the app's tab, as a person closing it would (navigating away may keep the page in the back-forward
    cache with its WebSocket open). A blank tab keeps the session alive."""
    app_tab = browser.driver.current_window_handle
    browser.driver.switch_to.new_window("tab")
    blank_tab = browser.driver.current_window_handle
    browser.driver.switch_to.window(app_tab)
    browser.driver.close()
    browser.driver.switch_to.window(blank_tab)


def fetch_headers(url):
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
        return response.headers


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

    def direct_chat(self):
        """Ann and Bob, their direct room, and Ann's page showing it."""
        ann, bob = self.user("ann"), self.user("bob")
        room_id = self.direct_room(ann, bob)
        page = self.signed_in(ann)
        self.open_chat(page, room_id)
        return ann, bob, room_id, page

    def mark_read(self, session, room_id):
        """Reads the room up to its end as `session` (from another device), so a chat opens at the bottom."""
        latest = next(room for room in api(self.base(), "GET", "/rooms", token=session["token"]) if room["id"] == room_id)["latestSeq"]
        reader = self.socket(session)
        reader.send({"type": "read", "room": room_id, "seq": latest})
        reader.receive_until(lambda frame: frame.get("type") == "receipt" and frame.get("room") == room_id
                             and frame.get("seq") == latest or frame.get("type") == "error")
        return latest

    def read_position(self, session, room_id):
        return next(room for room in api(self.base(), "GET", "/rooms", token=session["token"]) if room["id"] == room_id)["lastReadSeq"]

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

    def wait_for_badge(self, browser, room_id, count, what):
        """Waits until the room's unread badge shows `count` (None: no badge); a failure says what it showed."""
        try:
            browser.wait_for(lambda d: self.badge(browser, room_id) == count, what)
        except AssertionError as error:
            self.fail(f"{error}\nthe badge shows {self.badge(browser, room_id)!r}, not {count!r}")

    def assert_no_alerts(self, *browsers):
        for browser in browsers:
            self.assertEqual(browser.alerts(), [], "a script ran")

    def direct_room(self, session, peer):
        return api(self.base(), "POST", "/dms", {"username": peer["user"]["username"]}, token=session["token"])["id"]

    def seq_of(self, browser, text):
        seqs = [m["seq"] for m in self.messages(browser) if m["text"] == text and m["seq"]]
        self.assertEqual(len(seqs), 1, f"one delivered message {text!r}")
        return seqs[0]

    def message_node(self, browser, seq):
        return browser.find(f'#messages .message[data-seq="{seq}"]')

    def open_message_menu(self, browser, seq):
        """Hovers a message (its actions button shows on hover) and opens its menu; again if the message was rebuilt
        meanwhile (its node went stale)."""
        def open_menu(_):
            message = self.message_node(browser, seq)
            ActionChains(browser.driver).move_to_element(message).perform()
            message.find_element(By.CSS_SELECTOR, ".message-actions-button").click()
            return browser.find("#message-menu").is_displayed()
        browser.wait_for(open_menu, "the message menu")

    def choose_menu_item(self, browser, seq, action):
        self.open_message_menu(browser, seq)
        browser.find(f'#message-menu [data-action="{action}"]').click()

    def react_from_menu(self, browser, seq, emoji):
        self.open_message_menu(browser, seq)
        next(button for button in browser.find_all("#message-menu .menu-reaction") if button.text == emoji).click()

    def history_texts(self, session, room_id):
        history = api(self.base(), "GET", f"/rooms/{room_id}/messages?limit=100", token=session["token"])
        return [m["text"] for m in history["messages"] if m.get("kind", "message") == "message"]

    def light_colour(self, browser, where=".chat-view"):
        return browser.find(f"{where} .status-light").value_of_css_property("background-color")

    def scroll_state(self, browser):
        return browser.js("const s = document.getElementById('messages');"
                          "return {top: s.scrollTop, atBottom: s.scrollHeight - s.scrollTop - s.clientHeight < 50,"
                          "        pill: !document.getElementById('new-messages-pill').hidden};")


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
        browser.wait_for(lambda d: browser.find("#tab-chats").text.startswith("聊天"), "Chinese tab labels")
        self.assertEqual(browser.find("#sign-out").text, "退出登录")
        browser.js("const select = document.getElementById('language'); select.value = 'en';"
                   "select.dispatchEvent(new Event('change'));")
        browser.wait_for(lambda d: browser.find("#tab-chats").text.startswith("Chats"), "English tab labels")

        token = json.loads(browser.js("return localStorage.getItem('swiftchat.session')"))["token"]
        user_id = taken["user"]["id"]
        browser.js("localStorage.setItem(`swiftchat.drafts.${arguments[0]}`, '{\"room\": \"unsent words\"}')", user_id)
        stored_for_user = "return Object.keys(localStorage).filter((key) => key.endsWith('.' + arguments[0])).sort()"
        browser.wait_for(lambda d: f"swiftchat.rooms.{user_id}" in browser.js(stored_for_user, user_id), "the cached room list")
        browser.find("#sign-out").click()
        browser.wait_for(lambda d: browser.find_all("#auth-form"), "the sign-in form after signing out")
        self.assertEqual(browser.js(stored_for_user, user_id), [], "signing out leaves no rooms, drafts or outbox behind")
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
        ann.click(f'.contact-item[data-username="{bob_name}"]', "Bob in Contacts")
        ann.wait_for(lambda d: ann.find_all(".chat-view #composer-input"), "the direct chat")
        room_id = ann.find(".chat-view").get_attribute("data-room-id")
        self.assertEqual(ann.find("#chat-title").text, "Bob Chen")

        self.type_and_send(ann, "Hi Bob!")
        self.wait_for_texts(ann, ["Hi Bob!"], "Ann's first message delivered")

        self.wait_for_badge(bob, room_id, "1", "the new chat with an unread badge on Bob's side")
        bob.click(f'.chat-item[data-room-id="{room_id}"]', "the chat in Bob's list")
        self.wait_for_texts(bob, ["Hi Bob!"], "Ann's message on Bob's side")
        self.wait_for_badge(bob, room_id, None, "the badge cleared once Bob opened the chat")

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

        # The server's room list carries how far Bob has read, so "Read" survives a reload.
        ann.driver.refresh()
        ann.wait_for(lambda d: ann.find_all("#chat-list"), "the chat list after a reload")
        ann.go("#/chats")
        ann.click(f'.chat-item[data-room-id="{room_id}"]', "the chat opened from the list after a reload")
        self.wait_for_texts(ann, ["Hi Bob!", "Hello Ann", "Are you there?"], "the chat reopened after a reload")
        ann.wait_for(read_on_last, "'Read' under Ann's last message after a reload")

        image_path = os.path.join(tempfile.mkdtemp(), "green.png")
        with open(image_path, "wb") as file:
            file.write(png_bytes())
        ann.find(".chat-view input[type=file]").send_keys(image_path)

        def image_shown(browser):
            return lambda _: any(m["images"] == [True] for m in self.messages(browser) if m["seq"])
        bob.wait_for(image_shown(bob), "the image on Bob's side")
        ann.wait_for(image_shown(ann), "the image delivered on Ann's side")
        bob.click("#messages .image-button", "the image to open")
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
        browser.click('.contact-item[data-username="echo-bot"]', "echo-bot in Contacts")
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
        for browser in (sender, reader):
            self.assertEqual(rgb(self.light_colour(browser)), GREY_LIGHT, "the light is grey while offline")
            self.wait_for_texts(browser, ["before 1", "before 2"], "delivered messages kept during the outage")

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
        for browser in (sender, reader):
            browser.wait_for(lambda d: browser.find(".chat-view .status-light").get_attribute("data-state") == "online",
                             "the status light back on", timeout=TIMEOUT * 2)
            self.assertEqual(rgb(self.light_colour(browser)), GREEN_LIGHT, "the light is green again")
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

        self.wait_for_badge(browser, room_id, "1", "the message in the list")
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

    def test_content_security_policy_forbids_inline_scripts(self):
        for path in ("/", "/js/main.js", "/tools/echo.html"):
            policy = fetch_headers(self.base() + path)["Content-Security-Policy"] or ""
            directives = {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}
            self.assertEqual(directives.get("script-src"), ["'self'"], f"script-src of {path}")
            self.assertNotIn("unsafe-inline", policy, path)

        page = self.browser()
        page.open("#/chats")
        page.wait_for(lambda d: page.find_all("#auth-form"), "the page")
        violation = page.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            document.addEventListener('securitypolicyviolation', (event) => done(event.effectiveDirective), { once: true });
            const script = document.createElement('script');
            script.textContent = 'window.__inlineRan = true; alert("inline");';
            document.body.append(script);
        """)
        self.assertTrue(violation.startswith("script-src"), violation)
        self.assertFalse(page.js("return window.__inlineRan === true"), "the inline script ran")
        self.assert_no_alerts(page)


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


def rgb(css_colour):
    """(r, g, b) of a computed CSS colour such as `rgb(7, 193, 96)` or `rgba(7, 193, 96, 1)`."""
    return tuple(int(float(part)) for part in css_colour[css_colour.index("(") + 1:-1].split(",")[:3])


GREEN_LIGHT = (7, 193, 96)  # --accent
GREY_LIGHT = (178, 178, 178)  # --light-off in the light scheme
DARK_BACKGROUND = (17, 17, 17)  # --bg in the dark scheme


class MessageActionTests(WebClientTestCase):
    def test_reply_edit_delete_and_react_show_on_the_other_side(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        room_id = self.direct_room(ann, bob)
        ann_page, bob_page = self.signed_in(ann), self.signed_in(bob)
        self.open_chat(ann_page, room_id)
        self.open_chat(bob_page, room_id)
        self.type_and_send(ann_page, "lunch at noon?")
        self.type_and_send(ann_page, "or at one")
        self.wait_for_texts(bob_page, ["lunch at noon?", "or at one"], "Ann's messages on Bob's side")
        noon = self.seq_of(bob_page, "lunch at noon?")
        one = self.seq_of(bob_page, "or at one")

        self.choose_menu_item(bob_page, noon, "reply")
        bob_page.wait_for(lambda d: "Ann Lee" in bob_page.find(".composer-context").text, "the reply bar")
        self.type_and_send(bob_page, "noon works")
        self.wait_for_texts(ann_page, ["lunch at noon?", "or at one", "noon works"], "Bob's reply on Ann's side")
        reply = self.message_node(ann_page, self.seq_of(ann_page, "noon works"))
        self.assertEqual(reply.find_element(By.CSS_SELECTOR, ".quote-sender").text, "You", "my own message quoted")
        self.assertEqual(reply.find_element(By.CSS_SELECTOR, ".quote-text").text, "lunch at noon?")

        self.choose_menu_item(ann_page, one, "edit")
        box = ann_page.find("#composer-input")
        ann_page.wait_for(lambda d: box.get_attribute("value") == "or at one", "the message in the composer to edit")
        box.clear()
        box.send_keys("or at half past one", Keys.ENTER)
        self.wait_for_texts(bob_page, ["lunch at noon?", "or at half past one", "noon works"], "the edit on Bob's side")
        bob_page.wait_for(lambda d: self.message_node(bob_page, one).find_element(By.CSS_SELECTOR, ".edited-mark").text == "edited",
                          "the edited mark on Bob's side")

        self.choose_menu_item(ann_page, noon, "delete")
        bob_page.wait_for(lambda d: "deleted" in self.message_node(bob_page, noon).get_attribute("class").split(),
                          "the tombstone on Bob's side")
        self.assertEqual(self.message_node(bob_page, noon).find_element(By.CSS_SELECTOR, ".message-text").text,
                         "This message was deleted.")

        self.react_from_menu(bob_page, one, "👍")
        ann_page.wait_for(lambda d: [r.text for r in self.message_node(ann_page, one).find_elements(By.CSS_SELECTOR, ".reaction")]
                          == ["👍 1"], "Bob's reaction on Ann's side")
        bob_page.wait_for(lambda d: "mine" in self.message_node(bob_page, one).find_element(By.CSS_SELECTOR, ".reaction")
                          .get_attribute("class").split(), "Bob's own reaction marked as his")
        self.assertEqual(ann_page.alerts(), ["confirm: Delete this message for everyone?"])
        self.assert_no_alerts(bob_page)

    def test_a_failed_edit_or_reaction_shows_on_its_message_with_retry_and_discard(self):
        ann, bob, room_id, page = self.direct_chat()
        page.js(FRAME_RECORDER_JS)
        self.type_and_send(page, "see you at 8")
        self.wait_for_texts(page, ["see you at 8"], "the message delivered")
        seq = self.seq_of(page, "see you at 8")

        def failed_change(kind):
            return page.wait_for(lambda d: self.message_node(page, seq).find_element(
                By.CSS_SELECTOR, f'.change-status.failed-status[data-change="{kind}"]'), f"the failed {kind} on its message")

        arm_sabotage(page, "edit")
        self.choose_menu_item(page, seq, "edit")
        box = page.find("#composer-input")
        box.clear()
        box.send_keys("see you at 9", Keys.ENTER)
        status = failed_change("edit")
        self.assertIn("Edit not saved.", status.text)
        self.assertEqual([m["text"] for m in self.messages(page)], ["see you at 8"])

        page.click('#messages .change-status[data-change="edit"] .retry-button', "Retry under the failed edit")
        page.wait_for(lambda d: [m["text"] for m in self.messages(page)] == ["see you at 9"]
                      and not page.find_all("#messages .change-status"), "the edit saved by Retry")
        self.assertTrue(self.message_node(page, seq).find_elements(By.CSS_SELECTOR, ".edited-mark"))
        edits = [frame for frame in page.js("return window.__sentFrames") if frame["type"] == "edit"]
        self.assertEqual(len(edits), 2)
        self.assertEqual(edits[0]["clientMsgID"], edits[1]["clientMsgID"], "the retry reuses the clientMsgID")
        self.assertEqual(self.history_texts(bob, room_id), ["see you at 9"])

        arm_sabotage(page, "react")
        self.react_from_menu(page, seq, "😂")
        status = failed_change("react")
        self.assertIn("Reaction not sent.", status.text)
        page.click('#messages .change-status[data-change="react"] .discard-button', "Discard under the failed reaction")
        page.wait_for(lambda d: not page.find_all("#messages .change-status"), "the failed reaction discarded")
        self.assertEqual(page.find_all("#messages .reaction"), [])
        outbox = page.js("return JSON.parse(localStorage.getItem(`swiftchat.outbox.${arguments[0]}`))", ann["user"]["id"])
        self.assertEqual(outbox, [])
        self.assert_no_alerts(page)

    def test_a_failed_message_is_retried_with_the_same_client_msg_id(self):
        ann, bob, room_id, page = self.direct_chat()
        page.js(FRAME_RECORDER_JS)
        arm_sabotage(page, "send")
        self.type_and_send(page, "try again")
        page.wait_for(lambda d: [(m["text"], m["failed"]) for m in self.messages(page)] == [("try again", True)],
                      "the message marked failed")
        self.assertIn("Not sent", page.find("#messages .message.failed .failed-status").text)

        page.click("#messages .message.failed .retry-button", "Retry under the failed message")
        self.wait_for_texts(page, ["try again"], "the message sent by Retry")
        sends = [frame for frame in page.js("return window.__sentFrames") if frame["type"] == "send"]
        self.assertEqual([frame["text"] for frame in sends], ["try again", "try again"])
        self.assertEqual(sends[0]["clientMsgID"], sends[1]["clientMsgID"], "the retry reuses the clientMsgID")
        seq = self.seq_of(page, "try again")
        self.assertEqual(self.message_node(page, seq).get_attribute("data-client-msg-id"), sends[0]["clientMsgID"])
        self.assertEqual(self.history_texts(bob, room_id), ["try again"])


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


class ChatListTests(WebClientTestCase):
    def test_newest_activity_first_with_times_and_a_today_separator(self):
        owner, viewer = self.user("own"), self.user("view")
        rooms = [self.channel(owner, unique_name(f"Order {label} "), [viewer["user"]["username"]])["id"] for label in "ABC"]
        page = self.signed_in(viewer)
        talk = self.socket(owner)

        def order():
            return [item.get_attribute("data-room-id") for item in page.find_all(".chat-item")
                    if item.get_attribute("data-room-id") in rooms]

        # Each message waits for the list, so the three are surely apart in time.
        for index, room_id in enumerate(rooms):
            talk.send_message(room_id, f"hello {index}")
            page.wait_for(lambda d: order()[0] == room_id, f"room {index} first after its message")
        self.assertEqual(order(), rooms[::-1])
        talk.send_message(rooms[0], "again")
        page.wait_for(lambda d: order() == [rooms[0], rooms[2], rooms[1]], "the first room back on top")

        time_text = page.find(f'.chat-item[data-room-id="{rooms[0]}"] .chat-item-time').text
        self.assertRegex(time_text, r"^\d\d:\d\d$", "today's messages show their clock time")
        self.open_chat(page, rooms[0])
        self.wait_for_texts(page, ["hello 0", "again"], "the chat")
        self.assertEqual([node.text for node in page.find_all("#messages .day-separator")], ["Today"])

    def test_times_are_shown_the_way_chat_apps_do(self):
        page = self.browser()
        page.open("#/chats")
        page.wait_for(lambda d: page.find_all("#auth-form"), "the page")
        formats = page.driver.execute_async_script(TIME_FORMATS_JS)
        self.assertNotIn("error", formats)
        self.assertEqual(formats["english"], {
            "today": "13:53", "yesterday": "Yesterday", "sunday": "Sunday", "sameYear": "1/2", "lastYear": "11/2/2024"})
        self.assertEqual(formats["chinese"], {
            "today": "13:53", "yesterday": "昨天", "sunday": "星期日", "sameYear": "1/2", "lastYear": "2024/11/2"})
        self.assertEqual(formats["todayLabel"], "Today")


class TabTests(WebClientTestCase):
    def test_contacts_a_to_z_with_presence_discover_member_counts_and_me_version(self):
        tag = uuid.uuid4().hex[:8]
        viewer = self.user("view")
        names = ["charlie", "Bravo", "alpha", "Delta"]
        people = {name: register(self.base(), unique_name("p"), f"{name} {tag}") for name in names}
        bravo = people["Bravo"]
        self.direct_room(viewer, bravo)  # presence is shared with the people one shares a room with
        page = self.signed_in(viewer)
        bravo_page = self.signed_in(bravo)

        page.go("#/contacts")
        page.find("#contacts-filter").send_keys(tag)
        page.wait_for(lambda d: [node.text for node in page.find_all(".contact-item .contact-name")]
                      == [f"{name} {tag}" for name in ("alpha", "Bravo", "charlie", "Delta")], "contacts A–Z, any case")

        def online(person):
            dot = page.find(f'.contact-item[data-username="{person["user"]["username"]}"] .presence-dot')
            return "online" in dot.get_attribute("class").split()
        page.wait_for(lambda d: online(bravo), "Bravo online while his page is open")
        self.assertFalse(online(people["alpha"]))
        close_app_tab(bravo_page)
        page.wait_for(lambda d: not online(bravo), "Bravo offline once his page is gone")

        club = self.channel(people["alpha"], unique_name("Club "), [people["charlie"]["user"]["username"],
                                                                   viewer["user"]["username"]])["id"]
        page.go("#/discover")
        detail = page.wait_for(lambda d: page.find(f'.channel-item[data-room-id="{club}"] .contact-detail'), "the club in Discover")
        self.assertEqual(detail.text, "3 members")

        version = api(self.base(), "GET", "/config")["version"]
        page.go("#/me")
        page.wait_for(lambda d: page.find("#server-version").text == version, "the server's version in Me")


class LayoutTests(WebClientTestCase):
    BOX_JS = ("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
              "return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, shown: r.width > 0 && r.height > 0};")

    def box(self, page, selector):
        return page.js(self.BOX_JS, selector)

    def test_phone_and_desktop_layouts_dark_scheme_and_accessible_names(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        room_id = self.direct_room(ann, bob)
        bob_socket = self.socket(bob)
        attachment = api(self.base(), "POST", "/attachments?name=dot.png", raw=png_bytes(), content_type="image/png",
                         token=bob["token"])
        bob_socket.send_message(room_id, "", attachments=[attachment["id"]])
        bob_socket.send_message(room_id, "hello there")

        page = self.signed_in(ann, width=390, height=844)
        page.set_viewport(390, 844, mobile=True)
        page.wait_for(lambda d: page.find_all(f'.chat-item[data-room-id="{room_id}"]'), "the chat list")
        self.assertTrue(self.box(page, ".sidebar")["shown"])
        self.assertFalse(self.box(page, ".chat-pane")["shown"], "one pane on a phone")
        self.assertAlmostEqual(self.box(page, ".tabbar")["bottom"], 844, delta=1, msg="the tab bar at the bottom")
        self.open_chat(page, room_id)
        self.assertFalse(self.box(page, ".sidebar")["shown"], "the chat replaces the list on a phone")
        self.assertAlmostEqual(self.box(page, ".chat-pane")["width"], 390, delta=1)

        page.set_viewport(1280, 800)
        page.wait_for(lambda d: self.box(page, ".sidebar")["shown"], "the list beside the chat")
        sidebar, chat = self.box(page, ".sidebar"), self.box(page, ".chat-pane")
        self.assertTrue(chat["shown"])
        self.assertLessEqual(sidebar["right"], chat["left"] + 1, "list and chat side by side")

        self.assertNotEqual(rgb(page.find(".chat-pane").value_of_css_property("background-color")), DARK_BACKGROUND)
        page.set_dark(True)
        page.wait_for(lambda d: rgb(page.find(".chat-pane").value_of_css_property("background-color")) == DARK_BACKGROUND,
                      "the dark background")
        page.set_dark(False)

        page.wait_for(lambda d: any(m["images"] == [True] for m in self.messages(page)), "the image loaded")
        self.open_message_menu(page, self.seq_of(page, "hello there"))
        unnamed = []
        for element in page.find_all("button, img, input, textarea, select, a[href]"):
            if element.get_attribute("aria-hidden") == "true" or not element.is_displayed():
                continue
            if not (element.accessible_name or "").strip():
                unnamed.append(element.get_attribute("outerHTML")[:160])
        self.assertEqual(unnamed, [], "every visible control and image has an accessible name")
        self.assertTrue(page.find("#message-menu").is_displayed(), "the menu was checked too")


class ScreenshotTests(WebClientTestCase):
    """Not an assertion of looks: it saves what a person would see, for docs/screenshots and for review."""

    def test_screenshots(self):
        out = os.environ.get("SCREENSHOT_DIR", os.path.join(REPO, "docs", "screenshots"))
        ann = register(self.base(), unique_name("ann"), "Ann Lee")
        bob = register(self.base(), unique_name("bob"), "Bob Chen")
        chloe = register(self.base(), unique_name("chloe"), "Chloé Martin")
        dm = api(self.base(), "POST", "/dms", {"username": bob["user"]["username"]}, token=ann["token"])["id"]
        team = self.channel(chloe, "Design team", [ann["user"]["username"], bob["user"]["username"]])["id"]
        trip = api(self.base(), "POST", "/rooms", {"kind": "group", "name": "Weekend trip",
                                                   "members": [ann["user"]["username"], chloe["user"]["username"]]},
                   token=bob["token"])["id"]

        ann_socket, bob_socket, chloe_socket = self.socket(ann), self.socket(bob), self.socket(chloe)
        chloe_socket.send_message(team, "The new icons are in the shared folder.")
        bob_socket.send_message(team, "Looks great! I'll review them after lunch.")
        bob_socket.send_message(trip, "Train tickets are booked 🚆")
        chloe_socket.send_message(trip, "Here is the cabin: https://example.com/cabin")
        ann_socket.send_message(trip, "Perfect, I'll bring the board games 🎲")
        bob_socket.send_message(trip, "Who has the packing list?")
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
        self.mark_read(ann, dm)
        self.mark_read(ann, "lobby")

        def chat_ready():
            messages = self.messages(browser)
            return len(messages) >= 3 and all(all(m["images"]) for m in messages)

        def settle():
            browser.js("document.activeElement?.blur(); const s = document.getElementById('messages');"
                       "if (s) s.scrollTop = s.scrollHeight;")
            time.sleep(0.3)

        browser = self.signed_in(ann)
        browser.wait_for(lambda d: not browser.find("#connection-banner").is_displayed(), "connected")
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
                browser.wait_for(lambda d: chat_ready() and len(self.messages(browser)) >= 5, "the open chat")
                settle()
                browser.screenshot(os.path.join(out, f"{device}-{scheme}-chat.png"))
                self.open_chat(browser, trip)
                browser.wait_for(lambda d: chat_ready(), "the group")
                settle()
                browser.screenshot(os.path.join(out, f"{device}-{scheme}-group.png"))

        # The emoji picker on a phone, and the offline banner with a message waiting, on a desktop.
        browser.set_dark(False)
        browser.set_viewport(390, 844, True)
        self.open_chat(browser, dm)
        browser.wait_for(lambda d: chat_ready(), "the chat")
        settle()
        browser.find("#composer-emoji").click()
        browser.wait_for(lambda d: browser.find("#emoji-picker").is_displayed(), "the emoji picker")
        browser.screenshot(os.path.join(out, "phone-light-emoji.png"))
        ActionChains(browser.driver).send_keys(Keys.ESCAPE).perform()
        browser.set_viewport(1280, 800, False)
        browser.set_dark(True)
        self.open_chat(browser, team)
        browser.wait_for(lambda d: chat_ready(), "the channel")
        server.stop()
        try:
            browser.wait_for(lambda d: browser.find("#connection-banner").is_displayed(), "the offline banner")
            self.type_and_send(browser, "On my way, see you at 10:30!")
            browser.wait_for(lambda d: browser.find_all("#messages .message.pending"), "the waiting message")
            browser.wait_for(lambda d: "Next try" in browser.find("#connection-banner").text, "the next retry time")
            settle()
            browser.screenshot(os.path.join(out, "desktop-dark-offline.png"))
        finally:
            server.start()
        self.wait_for_texts(browser, ["The new icons are in the shared folder.", "Looks great! I'll review them after lunch.",
                                      "Standup moved to 10:30 tomorrow.", "On my way, see you at 10:30!"], "sent when back")
        self.assert_no_alerts(browser)


# MARK: issue 15: read only when read, honest offline state, phones, limits, names, Chinese, accessibility, groups…


def seed(session, room_id, count, prefix="line"):
    client = WebSocketClient(server.base_url, session["token"])
    try:
        client.start()
        return [client.send_message(room_id, f"{prefix} {number}") for number in range(1, count + 1)]
    finally:
        client.close()


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

        # The position is kept while the page lives: away to another chat and back.
        page.js("document.getElementById('messages').scrollTop -= 300")
        time.sleep(0.3)
        anchor_js = "return document.querySelector(`#messages [data-seq=\"${arguments[0]}\"]`).getBoundingClientRect().top;"
        before = page.js(anchor_js, seqs[15])
        self.open_chat(page, other_id)
        self.open_chat(page, room_id)
        page.wait_for(lambda d: abs(page.js(anchor_js, seqs[15]) - before) <= 2, "the same place as before")

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


class OfflineTests(WebClientTestCase):
    """Issue 15, defect 3: being offline is visible, presence is unknown, and the app starts offline."""

    BANNER_JS = ("const b = document.getElementById('connection-banner');"
                 "return b && !b.hidden ? {text: b.textContent, attempts: Number(b.dataset.attempts),"
                 " next: Number(b.dataset.nextRetry) - Date.now()} : null;")

    def test_gh15_offline_banner_with_next_retry_retry_now_and_unknown_presence(self):
        ann, bob = self.user("ann"), self.user("bob")
        room_id = self.direct_room(ann, bob)
        self.socket(bob)  # Bob is online
        page = self.signed_in(ann)
        self.open_chat(page, room_id)
        page.wait_for(lambda d: page.find("#chat-subtitle").text == "Online", "Bob online")
        self.assertIsNone(page.js(self.BANNER_JS))

        server.stop()
        try:
            page.wait_for(lambda d: (page.js(self.BANNER_JS) or {}).get("text", "").startswith(
                "Offline — messages will be sent when the connection is back."), "the offline banner")
            self.assertEqual(page.find("#chat-subtitle").text, "Status unknown while offline")
            self.assertNotEqual(page.find("#chat-subtitle").text, "Online")
            self.type_and_send(page, "while away")
            page.wait_for(lambda d: page.find("#messages .message.pending .message-status").text == "Waiting for the connection…",
                          "the pending message waits for the connection")
            page.wait_for(lambda d: "Next try at" in page.find("#connection-banner").text, "the next retry time")
            page.wait_for(lambda d: (page.js(self.BANNER_JS) or {}).get("next", 0) > 1800, "a retry a while away", timeout=30)
            attempts = page.js(self.BANNER_JS)["attempts"]
            page.find("#retry-now").click()
            page.wait_for(lambda d: (page.js(self.BANNER_JS) or {}).get("attempts", 0) > attempts, "Retry now tries at once", timeout=1.5)
        finally:
            server.start()
        page.wait_for(lambda d: page.js(self.BANNER_JS) is None, "the banner gone once connected", timeout=TIMEOUT)
        self.wait_for_texts(page, ["while away"], "the queued message sent")
        page.wait_for(lambda d: page.find("#chat-subtitle").text != "Status unknown while offline", "presence known again")

    def test_gh15_a_reload_during_an_outage_opens_the_cached_app_and_sends_the_queue_when_back(self):
        ann, bob, room_id, page = self.direct_chat()
        self.socket(bob).send_message(room_id, "before the outage")
        self.wait_for_texts(page, ["before the outage"], "a message before the outage")
        page.driver.set_script_timeout(TIMEOUT)
        page.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "navigator.serviceWorker.ready.then(() => done(true), () => done(false));")
        page.wait_for(lambda d: page.js("return Boolean(navigator.serviceWorker.controller)"), "the service worker in control")

        server.stop()
        try:
            page.driver.refresh()
            page.wait_for(lambda d: page.find_all(f'.chat-view[data-room-id="{room_id}"] #composer-input'),
                          "the app and the chat opened from the cache")
            page.wait_for(lambda d: page.js(self.BANNER_JS), "the offline banner after the reload")
            self.wait_for_texts(page, ["before the outage"], "the chat's cached messages")
            page.js("window.__sameDocument = true")
            self.type_and_send(page, "queued offline")
            self.wait_for_texts(page, ["before the outage", "queued offline"], "the queued message shown", delivered=False)
        finally:
            server.start()
        self.wait_for_texts(page, ["before the outage", "queued offline"], "the queued message sent without a reload")
        self.assertTrue(page.js("return window.__sameDocument === true"), "no reload was needed")
        self.assertEqual(self.history_texts(bob, room_id), ["before the outage", "queued offline"])

    def test_gh15_the_service_worker_caches_every_file_of_the_app_shell(self):
        with open(os.path.join(REPO, "Public", "sw.js")) as file:
            listed = set(re.findall(r"^  '(/[^']*)',$", file.read(), re.M))
        shell = {"/"}
        for folder in ("js", "css", "icons"):
            for directory, _, names in os.walk(os.path.join(REPO, "Public", folder)):
                for name in names:
                    shell.add("/" + os.path.relpath(os.path.join(directory, name), os.path.join(REPO, "Public")))
        self.assertEqual(listed, shell, "Public/sw.js's SHELL list")


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


class TutorialSenderTests(WebClientTestCase):
    """Issue 15, defect 5: senders without a profile are looked up once, and a miss is no error."""

    def test_gh15_lobby_senders_from_tcp_are_looked_up_once_without_errors(self):
        viewer = self.user("lobby")
        page = self.signed_in(viewer)
        self.open_chat(page, "lobby")
        name = unique_name("gregg")
        tcp = socket.create_connection(("127.0.0.1", server.tcp_port), timeout=TIMEOUT)
        self.addCleanup(tcp.close)
        tcp.sendall(f"iam:{name}\n".encode())
        for number in range(1, 6):
            tcp.sendall(f"msg:tcp line {number}\n".encode())
            page.wait_for(lambda d: any(m["text"] == f"tcp line {number}" for m in self.messages(page)), f"tcp line {number}")
            self.socket(viewer).send_message("lobby", f"reply {number}")  # more renders
        page.wait_for(lambda d: any(m["text"] == "reply 5" for m in self.messages(page)), "the last reply")
        time.sleep(1)
        lookups = page.js("return performance.getEntriesByType('resource').map((e) => e.name)"
                          ".filter((n) => n.includes('/api/v1/users'))")
        self.assertEqual(len(lookups), len(set(lookups)), f"no lookup repeated: {lookups}")
        self.assertLessEqual(sum(name in lookup for lookup in lookups), 1, "the TCP sender was looked up once at most")
        self.assertEqual(page.console_errors(), "", "no errors in the console")
        names = [node.text for node in page.find_all("#messages .message-sender")]
        self.assertIn(name, names, "the sender's name from the message")


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
        page.wait_for(lambda d: page.find(".chat-view .status-light").get_attribute("data-state") == "online", "connected")

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
        labels = sorted(node.text for node in page.find_all("#search-results .search-result .chat-item-name"))
        self.assertEqual(labels, ["Dave Davis", "You · Dave Davis"])
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


class LastSeenTests(WebClientTestCase):
    """Issue 15, defect 7: "last seen" in Contacts and chat headers."""

    def test_gh15_last_seen_shows_in_contacts_and_the_chat_header(self):
        viewer, bob = self.user("view"), self.user("bob", "Bob Seen")
        room_id = self.direct_room(viewer, bob)
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
        page.go("#/contacts")
        page.find("#contacts-filter").send_keys(bob["user"]["username"])
        page.wait_for(lambda d: "last seen" in page.find(f'.contact-item[data-username="{bob["user"]["username"]}"] .contact-detail').text,
                      "last seen in Contacts")
        detail = page.find(f'.contact-item[data-username="{bob["user"]["username"]}"] .contact-detail').text
        self.assertRegex(detail, r"last seen (just now|\d+ min ago)$")
        self.open_chat(page, room_id)
        page.wait_for(lambda d: re.match(r"last seen (just now|\d+ min ago)$", page.find("#chat-subtitle").text), "last seen in the header")


LANGUAGE_FOR_JS = """
const done = arguments[arguments.length - 1];
import('/js/strings.js').then((strings) => done(Object.fromEntries(arguments[0].map((tag) => [tag, strings.languageFor(tag)]))),
  (error) => done({ error: String(error) }));
"""


class ChineseTests(WebClientTestCase):
    """Issue 15, defect 8: Simplified Chinese done right, chosen on the sign-in screen; Traditional falls back."""

    def test_gh15_language_on_sign_in_full_width_punctuation_one_term_for_reply(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob")
        room_id = self.direct_room(bob, ann)
        self.socket(ann).send_message(room_id, "你好")
        page = self.browser()
        page.open("#/chats")
        page.wait_for(lambda d: page.find_all("#auth-language"), "the language picker on the sign-in screen")
        page.find("#auth-username").send_keys(bob["user"]["username"])
        page.js("const s = document.getElementById('auth-language'); s.value = 'zh-CN'; s.dispatchEvent(new Event('change'));")
        page.wait_for(lambda d: page.find(".auth-title").text == "登录 SwiftChat", "the sign-in screen in Chinese")
        self.assertEqual(page.find("#auth-switch").text, "没有账号？注册")
        self.assertEqual(page.find("#auth-username").get_attribute("value"), bob["user"]["username"], "what was typed stays")
        page.find("#auth-switch").click()
        self.assertEqual(page.find("label[for=auth-display-name]").text, "昵称（可选）")
        page.find("#auth-switch").click()
        page.find("#auth-password").send_keys(PASSWORD)
        page.find("#auth-submit").click()
        page.wait_for(lambda d: page.find("#tab-chats").text.startswith("聊天"), "the Chats tab called 聊天")

        self.open_chat(page, room_id)
        self.wait_for_texts(page, ["你好"], "the message")
        seq = self.seq_of(page, "你好")
        self.open_message_menu(page, seq)
        self.assertEqual(page.find('#message-menu [data-action="reply"]').text, "回复")
        page.find('#message-menu [data-action="reply"]').click()
        self.assertTrue(page.find(".composer-context-title").text.startswith("回复 "), "the composer says 回复 too")

        tags = page.driver.execute_async_script(LANGUAGE_FOR_JS, ["zh-CN", "zh", "zh-SG", "zh-Hans-CN", "zh-TW", "zh-HK", "zh-Hant", "en-GB"])
        self.assertEqual(tags, {"zh-CN": "zh-CN", "zh": "zh-CN", "zh-SG": "zh-CN", "zh-Hans-CN": "zh-CN",
                                "zh-TW": "zh-Hant", "zh-HK": "zh-Hant", "zh-Hant": "zh-Hant", "en-GB": "en"})

        # Traditional Chinese has its own table.
        page.go("#/me")
        page.js("const s = document.getElementById('language'); s.value = 'zh-Hant'; s.dispatchEvent(new Event('change'));")
        page.wait_for(lambda d: page.find("#tab-discover").text.startswith("探索"), "the tabs in Traditional Chinese")
        self.assertEqual(page.find("#sign-out").text, "登出")

    def test_gh15_chinese_strings_use_full_width_punctuation_and_cover_every_key(self):
        def read(name):
            with open(os.path.join(REPO, "Public", "js", name), encoding="utf-8") as file:
                return file.read()
        source = read("strings.js")
        tables = {"en": source[source.index("  en: {"):source.index("'zh-CN': {")],
                  "zh-CN": source[source.index("'zh-CN': {"):source.index("'zh-Hant': ZH_HANT")],
                  "zh-Hant": read("strings.zh-Hant.js")}
        entries = {name: dict(re.findall(r"^\s*(\w+): '(.*)',$", table, re.M)) for name, table in tables.items()}
        for name in ("zh-CN", "zh-Hant"):
            self.assertEqual(set(entries[name]), set(entries["en"]), f"the keys of {name}")
            half_width = [value for value in entries[name].values()
                          if re.search(r"[\u4e00-\u9fff]", value) and re.search(r"[,?:()!;]", re.sub(r"\{\w+\}", "", value))]
            self.assertEqual(half_width, [], f"{name} strings with half-width punctuation")
            self.assertNotIn("微信", tables[name])


class AccessibilityTests(WebClientTestCase):
    """Issue 15, defect 9: contrast, focus, one tab stop per list, skip link, tabs, polite announcements, axe."""

    def test_gh15_no_serious_or_critical_axe_violations_on_any_screen(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        room_id = self.direct_room(ann, bob)
        group = self.channel(bob, unique_name("Axe "), [ann["user"]["username"]])["id"]
        bob_socket = self.socket(bob)
        seq = bob_socket.send_message(room_id, "hello https://example.com there")
        bob_socket.request({"type": "react", "room": room_id, "target": seq, "emoji": "👍"})
        bob_socket.send_message(group, "group hello")
        violations = []
        page = self.browser()
        for dark in (False, True):
            page.set_dark(dark)
            scheme = "dark" if dark else "light"
            page.open("#/chats")
            page.wait_for(lambda d: page.find_all("#auth-form"), "the sign-in form")
            violations += axe_violations(page, f"sign-in {scheme}")
            page.find("#auth-switch").click()
            violations += axe_violations(page, f"register {scheme}")
        page.set_dark(False)
        page.sign_in_with(ann)
        for dark in (False, True):
            page.set_dark(dark)
            scheme = "dark" if dark else "light"
            for tab in ("chats", "contacts", "discover", "me"):
                page.go(f"#/{tab}")
                page.wait_for(lambda d: page.find(f"#tab-{tab}").get_attribute("aria-selected") == "true", f"the {tab} tab")
                time.sleep(0.3)
                violations += axe_violations(page, f"{tab} {scheme}")
            self.open_chat(page, room_id)
            if not dark:
                page.wait_for(lambda d: self.messages(page), "the messages")
                self.type_and_send(page, "my reply")
            self.wait_for_texts(page, ["hello https://example.com there", "my reply"], "the chat")
            violations += axe_violations(page, f"chat {scheme}")
            self.open_message_menu(page, seq)
            violations += axe_violations(page, f"message menu {scheme}")
            page.find("#more-reactions").click()
            page.wait_for(lambda d: page.find("#emoji-picker").is_displayed(), "the emoji picker")
            violations += axe_violations(page, f"emoji picker {scheme}")
            ActionChains(page.driver).send_keys(Keys.ESCAPE).perform()
            self.open_chat(page, group)
            page.find("#room-info-button").click()
            page.wait_for(lambda d: page.find("#room-info").is_displayed(), "the chat info")
            violations += axe_violations(page, f"chat info {scheme}")
            page.find("#room-info .dialog-close").click()
        server.stop()
        try:
            page.wait_for(lambda d: page.find("#connection-banner").is_displayed(), "the offline banner")
            violations += axe_violations(page, "offline banner dark")
            page.set_dark(False)
            violations += axe_violations(page, "offline banner light")
        finally:
            server.start()
        self.assertEqual(violations, [], "\n".join(violations))

    def test_gh15_keyboard_focus_sign_in_tabs_skip_link_and_one_stop_for_the_messages(self):
        bob = self.user("bob")
        page = self.browser()
        username = unique_name("key")
        self.register_in_ui(page, username, "Key Board")
        page.wait_for(lambda d: page.js("return document.activeElement.closest('#chat-list') !== null"),
                      "the focus on the chat list after signing in")

        page.find("#tab-chats").click()
        page.find("#tab-chats").send_keys(Keys.ARROW_RIGHT)
        page.wait_for(lambda d: page.js("return location.hash") == "#/contacts", "→ shows the next tab")
        self.assertEqual(page.js("return document.activeElement.id"), "tab-contacts")
        self.assertEqual(page.js("return [...document.querySelectorAll('[role=tab]')].map((t) => t.tabIndex)"), [-1, 0, -1, -1])
        page.find("#tab-contacts").send_keys(Keys.ARROW_LEFT)
        page.wait_for(lambda d: page.js("return location.hash") == "#/chats", "← shows the previous tab")

        session = json.loads(page.js("return localStorage.getItem('swiftchat.session')"))
        room_id = self.direct_room(session, bob)
        bob_socket = self.socket(bob)
        for number in range(1, 6):
            bob_socket.send_message(room_id, f"key {number}")
        self.open_chat(page, room_id)
        self.wait_for_texts(page, [f"key {n}" for n in range(1, 6)], "the messages")
        self.wait_for_badge(page, room_id, None, "read")
        stops = page.js("return [...document.querySelectorAll('#messages button, #messages a[href], #messages [tabindex]')]"
                        ".filter((e) => e.tabIndex >= 0).length")
        self.assertEqual(stops, 1, "one tab stop for the whole message list")
        page.js("document.querySelector('#messages .message[tabindex=\"0\"]').focus()")
        self.assertEqual(page.js("return document.activeElement.querySelector('.message-text').textContent"), "key 5")
        ActionChains(page.driver).send_keys(Keys.ARROW_UP).perform()
        self.assertEqual(page.js("return document.activeElement.querySelector('.message-text').textContent"), "key 4")
        ActionChains(page.driver).send_keys(Keys.ENTER).perform()
        page.wait_for(lambda d: page.find("#message-menu").is_displayed(), "the menu on Enter")
        ActionChains(page.driver).send_keys(Keys.ESCAPE).perform()

        page.js("document.getElementById('skip-link').focus()")
        self.assertTrue(page.find("#skip-link").is_displayed(), "the skip link shows when focused")
        ActionChains(page.driver).send_keys(Keys.ENTER).perform()
        self.assertEqual(page.js("return document.activeElement.id"), "composer-input")

        # New messages are announced politely; the list itself is no live region (older pages stay quiet).
        self.assertIsNone(page.find("#messages").get_attribute("aria-live"))
        self.assertNotEqual(page.find("#messages").get_attribute("role"), "log")
        self.assertEqual(page.find("#message-announcer").get_attribute("aria-live"), "polite")
        self.assertEqual(page.find("#message-announcer").get_attribute("textContent"), "")
        bob_socket.send_message(room_id, "announce me")
        page.wait_for(lambda d: "announce me" in page.find("#message-announcer").get_attribute("textContent"), "the announcement")

    def test_gh15_text_colours_reach_4_5_to_1(self):
        contrast_js = """
        const parse = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
        const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
          .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
        const probe = document.createElement('span'); document.body.append(probe);
        const colour = (name) => { probe.style.color = `var(${name})`; return parse(getComputedStyle(probe).color); };
        const ratio = (a, b) => { const [x, y] = [lum(colour(a)), lum(colour(b))].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
        const pairs = [['--muted', '--surface'], ['--muted', '--bg'], ['--muted', '--panel'], ['--accent-text', '--panel'],
          ['--accent-text', '--surface'], ['--on-accent', '--button-bg'], ['--bubble-mine-meta', '--bubble-mine'],
          ['--muted', '--bubble-theirs'], ['--danger', '--surface'], ['--link', '--bg'], ['--banner-text', '--banner-bg']];
        const result = pairs.map(([a, b]) => [a, b, ratio(a, b)]);
        probe.remove();
        return result;
        """
        page = self.browser()
        page.open("#/chats")
        page.wait_for(lambda d: page.find_all("#auth-form"), "the page")
        for dark in (False, True):
            page.set_dark(dark)
            low = [(a, b, round(r, 2)) for a, b, r in page.js(contrast_js) if r < 4.5]
            self.assertEqual(low, [], f"contrast below 4.5:1 ({'dark' if dark else 'light'})")


DROP_FILE_JS = """
const dropped = new DataTransfer();
dropped.items.add(new File(['plain words in a file\\n'], arguments[0], { type: 'text/plain' }));
document.querySelector('.chat-view').dispatchEvent(new DragEvent('drop', { dataTransfer: dropped, bubbles: true, cancelable: true }));
"""


class SmallLossTests(WebClientTestCase):
    """Issue 15, defect 10: any dropped file is sent; signing out asks before losing unsent work."""

    def test_gh15_a_dropped_file_that_is_not_an_image_is_sent_as_a_file(self):
        ann, bob = self.user("ann"), self.user("bob")
        room_id = self.direct_room(ann, bob)
        page, bob_page = self.signed_in(ann), self.signed_in(bob)
        self.open_chat(page, room_id)
        self.open_chat(bob_page, room_id)
        page.js(DROP_FILE_JS, "notes.txt")
        card_js = ("const card = document.querySelector('#messages .message[data-seq] .file-card');"
                   "return card && [card.textContent, card.querySelector('a.attachment-file')?.getAttribute('download')];")
        for browser in (page, bob_page):
            browser.wait_for(lambda d: browser.js(card_js), "the file bubble")
            self.assertEqual(browser.js(card_js), ["notes.txt22 B", "notes.txt"], "name, size and a download link")
        history = api(self.base(), "GET", f"/rooms/{room_id}/messages", token=bob["token"])
        self.assertEqual([a["name"] for m in history["messages"] for a in m.get("attachments", [])], ["notes.txt"])

        # A file over the server's upload limit (GET /config) fails at once, with the reason, without uploading.
        limit = api(self.base(), "GET", "/config")["maxUploadBytes"]
        page.js("const dropped = new DataTransfer();"
                "dropped.items.add(new File([new Uint8Array(arguments[0] + 1)], 'huge.bin'));"
                "document.querySelector('.chat-view').dispatchEvent(new DragEvent('drop', {dataTransfer: dropped, bubbles: true, cancelable: true}));",
                limit)
        page.wait_for(lambda d: page.find("#messages .message.failed .failed-status").text.startswith("That file is too large."),
                      "the upload refused before it started")
        uploads = page.js("return performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/v1/attachments?')).length")
        self.assertEqual(uploads, 1, "only notes.txt was uploaded")

    def test_gh15_sign_out_asks_first_when_drafts_or_unsent_messages_would_be_lost(self):
        ann, bob, room_id, page = self.direct_chat()
        page.find("#composer-input").send_keys("half a thought")
        page.go("#/me")
        page.js("window.confirm = (message) => { window.__asked = message; return false; }")
        page.click("#sign-out", "Sign out")
        self.assertIn("not sent", page.js("return window.__asked"))
        self.assertEqual(page.find_all("#auth-form"), [], "still signed in after Cancel")
        page.js("window.confirm = () => true")
        page.click("#sign-out", "Sign out")
        page.wait_for(lambda d: page.find_all("#auth-form"), "signed out after OK")

        carl = self.user("carl")
        page.sign_in_with(carl)
        page.go("#/me")
        page.js("window.confirm = (message) => { window.__asked = message; return true; }; window.__asked = null;")
        page.click("#sign-out", "Sign out without unsent work")
        page.wait_for(lambda d: page.find_all("#auth-form"), "signed out")
        self.assertIsNone(page.js("return window.__asked"), "nothing to lose, nothing asked")


class GroupTests(WebClientTestCase):
    """Issue 15, groups: create a group or a channel, invite, mute, leave, member counts."""

    def test_gh15_create_a_group_invite_someone_mute_and_leave(self):
        ann, bob, carol = self.user("ann"), self.user("bob"), self.user("carol")
        page = self.signed_in(ann)
        page.go("#/discover")
        name = unique_name("Book club ")
        page.wait_for(lambda d: page.find("#kind-group"), "the create form").click()
        page.find("#room-members").send_keys(bob["user"]["username"])
        page.find("#channel-name").send_keys(name)
        page.find("#create-channel button[type=submit]").click()
        page.wait_for(lambda d: page.find("#chat-title").text == name, "the new group")
        room_id = page.find(".chat-view").get_attribute("data-room-id")
        self.assertEqual(page.find("#chat-subtitle").text, "Group")
        bob_rooms = api(self.base(), "GET", "/rooms", token=bob["token"])
        self.assertEqual([r["kind"] for r in bob_rooms if r["id"] == room_id], ["group"])
        self.assertNotIn(room_id, [c["id"] for c in api(self.base(), "GET", "/rooms/public", token=carol["token"])])

        page.find("#room-info-button").click()
        page.wait_for(lambda d: page.find("#room-info").is_displayed(), "the chat info")
        page.find("#invite-username").send_keys(carol["user"]["username"], Keys.ENTER)
        page.wait_for(lambda d: "was added" in page.find("#invite-status").text, "the invitation done")
        self.assertIn(room_id, [r["id"] for r in api(self.base(), "GET", "/rooms", token=carol["token"])])
        page.find("#mute-chat").click()
        page.find("#room-info .dialog-close").click()
        page.wait_for(lambda d: page.find("#chat-pane .muted-mark").is_displayed(), "the muted mark")

        page.find("#room-info-button").click()
        page.click("#leave-room", "Leave")
        page.wait_for(lambda d: not page.find_all(f'.chat-item[data-room-id="{room_id}"]'), "the group gone from the list")
        self.assertNotIn(room_id, [r["id"] for r in api(self.base(), "GET", "/rooms", token=ann["token"])])
        self.assertTrue(any(alert.startswith("confirm: Leave") for alert in page.alerts()))

    def test_gh15_a_channel_header_shows_its_member_count(self):
        ann, bob, carol = self.user("ann"), self.user("bob"), self.user("carol")
        room_id = self.channel(ann, unique_name("Count "), [bob["user"]["username"], carol["user"]["username"]])["id"]
        page = self.signed_in(ann)
        self.open_chat(page, room_id)
        page.wait_for(lambda d: page.find("#chat-subtitle").text == "Channel · 3 members", "the member count")

    def test_gh15_the_chat_info_lists_a_groups_members_with_avatar_and_presence(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Stone")
        room_id = api(self.base(), "POST", "/rooms", {"kind": "group", "name": unique_name("Pair "),
                                                       "members": [bob["user"]["username"]]}, token=ann["token"])["id"]
        self.socket(bob)  # Bob is online
        page = self.signed_in(ann)
        self.open_chat(page, room_id)
        page.find("#room-info-button").click()
        members_js = ("return Array.from(document.querySelectorAll('#room-info-members .member-row'), (row) => ({"
                      "username: row.dataset.username, name: row.querySelector('.member-name').textContent,"
                      "initials: row.querySelector('.avatar').textContent,"
                      "online: row.querySelector('.presence-dot').classList.contains('online')}));")
        ann_row = {"username": ann["user"]["username"], "name": "Ann Lee (You)", "initials": ann["user"]["initials"], "online": True}
        bob_row = {"username": bob["user"]["username"], "name": "Bob Stone", "initials": bob["user"]["initials"], "online": True}
        expected = sorted([ann_row, bob_row], key=lambda row: row["username"])
        try:
            page.wait_for(lambda d: page.js(members_js) == expected, "both members, by username, with initials and Bob online")
        except AssertionError:
            self.fail(f"the chat info shows {page.js(members_js)}, not {expected}")
        self.assert_no_alerts(page)


class PasswordTests(WebClientTestCase):
    """Issue 15, Me: changing the password keeps this browser signed in with the new session."""

    def test_gh15_changing_the_password_keeps_this_browser_signed_in_and_the_old_one_stops_working(self):
        ann, bob = self.user("ann"), self.user("bob")
        room_id = self.direct_room(ann, bob)
        page = self.signed_in(ann)
        page.go("#/me")
        page.wait_for(lambda d: page.find_all("#password-form"), "the password form")
        new_password = "a much better one 42"
        page.find("#current-password").send_keys("wrong password!")
        page.find("#new-password").send_keys(new_password)
        page.find("#confirm-password").send_keys(new_password)
        page.find("#change-password").click()
        page.wait_for(lambda d: page.find("#password-status").text == "Wrong username or password.", "the server's error")

        page.find("#current-password").clear()
        page.find("#current-password").send_keys(PASSWORD)
        page.find("#change-password").click()
        page.wait_for(lambda d: page.find("#password-status").text.startswith("Password changed"), "the confirmation")
        self.assertEqual(page.find("#current-password").get_attribute("value"), "")
        token = page.js("return JSON.parse(localStorage.getItem('swiftchat.session')).token")
        self.assertNotEqual(token, ann["token"])
        with self.assertRaises(ApiError) as revoked:
            api(self.base(), "GET", "/me", token=ann["token"])
        self.assertEqual(revoked.exception.status, 401)

        # Still signed in here: the socket reconnects with the new token and sends.
        time.sleep(1.5)
        self.assertFalse(page.find_all("#auth-form"), "signed out after the password change")
        self.open_chat(page, room_id)
        self.type_and_send(page, "after the change")
        self.wait_for_texts(page, ["after the change"], "the message sent with the new session")
        self.assertEqual(self.history_texts(bob, room_id), ["after the change"])

        with self.assertRaises(ApiError) as old:
            api(self.base(), "POST", "/login", {"username": ann["user"]["username"], "password": PASSWORD})
        self.assertEqual(old.exception.status, 401)
        self.assertTrue(api(self.base(), "POST", "/login", {"username": ann["user"]["username"], "password": new_password})["token"])
        page.js("location.reload()")
        page.wait_for(lambda d: page.find_all(f'.chat-view[data-room-id="{room_id}"] #composer-input'), "still signed in after a reload")
        self.assert_no_alerts(page)


NOTIFICATION_RECORDER_JS = """
window.__notifications = [];
window.Notification = class {
  constructor(title, options) { window.__notifications.push({ title, body: options && options.body }); }
  static requestPermission() { return Promise.resolve('granted'); }
  static get permission() { return 'granted'; }
  close() {}
};
"""


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
        page.find("#mute-chat").click()
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


class MessageFeatureTests(WebClientTestCase):
    """Issue 15: links, emoji (composer, any reaction, recents, who reacted), copy, quotes, ↑ to edit, drafts."""

    def test_gh15_links_are_safe_and_emoji_can_be_sent_and_reacted_with(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        room_id = self.direct_room(ann, bob)
        bob_socket = self.socket(bob)
        seq = bob_socket.send_message(room_id, "see https://example.com/a?b=1, not javascript:alert(1) <a href=x>x</a>")
        page = self.signed_in(ann)
        self.open_chat(page, room_id)
        page.wait_for(lambda d: page.find_all("#messages .message-link"), "the link")
        links = page.js("return [...document.querySelectorAll('#messages a.message-link')].map((a) => [a.getAttribute('href'), a.rel, a.target, a.textContent])")
        self.assertEqual(links, [["https://example.com/a?b=1", "noopener noreferrer", "_blank", "https://example.com/a?b=1"]])
        self.assertEqual(page.find_all('#messages a[href^="javascript"], #messages a[href="x"]'), [])

        page.find("#composer-emoji").click()
        page.wait_for(lambda d: page.find("#emoji-picker").is_displayed(), "the emoji picker")
        next(b for b in page.find_all("#emoji-picker .emoji-choice") if b.text == "🍕").click()
        self.assertEqual(page.find("#composer-input").get_attribute("value"), "🍕")
        page.find("#composer-input").send_keys(Keys.ENTER)
        self.wait_for_texts(page, ["see https://example.com/a?b=1, not javascript:alert(1) <a href=x>x</a>", "🍕"], "the emoji sent")

        self.open_message_menu(page, seq)
        page.find("#more-reactions").click()
        page.wait_for(lambda d: page.find("#emoji-picker").is_displayed(), "the picker for reactions")
        self.assertEqual(page.find("#emoji-picker .emoji-group-title").text, "Recently used")
        self.assertEqual(page.find("#emoji-picker .emoji-choice").text, "🍕", "recent emoji first")
        next(b for b in page.find_all("#emoji-picker .emoji-choice") if b.text == "🦊").click()
        page.wait_for(lambda d: self.message_node(page, seq).find_element(By.CSS_SELECTOR, ".reaction").text == "🦊 1", "my 🦊")
        bob_socket.request({"type": "react", "room": room_id, "target": seq, "emoji": "🦊"})
        page.wait_for(lambda d: self.message_node(page, seq).find_element(By.CSS_SELECTOR, ".reaction").text == "🦊 2", "two 🦊")
        self.assertEqual(self.message_node(page, seq).find_element(By.CSS_SELECTOR, ".reaction").get_attribute("title"),
                         "🦊 from You, Bob Chen")
        # A long press (the context menu on a touch screen) shows who reacted too.
        page.js("arguments[0].dispatchEvent(new MouseEvent('contextmenu', {bubbles: true, cancelable: true}))",
                self.message_node(page, seq).find_element(By.CSS_SELECTOR, ".reaction"))
        page.wait_for(lambda d: page.find("#messages .reaction-who").text == "🦊 from You, Bob Chen", "who reacted, on a long press")

    def test_gh15_copy_quote_jump_arrow_up_edits_and_drafts_in_the_list(self):
        ann, bob = self.user("ann"), self.user("bob")
        room_id = self.direct_room(ann, bob)
        other = self.channel(bob, unique_name("Other "), [ann["user"]["username"]])["id"]
        bob_socket = self.socket(bob)
        first = bob_socket.send_message(room_id, "the original")
        seed(bob, room_id, 40, prefix="filler")
        self.mark_read(ann, room_id)
        bob_socket.send_message(room_id, "answer to this", replyTo=first)
        page = self.signed_in(ann)
        self.open_chat(page, room_id)
        page.js("window.__copied = null; navigator.clipboard.writeText = (text) => { window.__copied = text; return Promise.resolve(); };")
        page.wait_for(lambda d: any(m["text"] == "answer to this" and m["seq"] for m in self.messages(page)), "the reply")
        last = self.seq_of(page, "answer to this")
        self.choose_menu_item(page, last, "copy")
        page.wait_for(lambda d: page.js("return window.__copied") == "answer to this", "copied")

        self.message_node(page, last).find_element(By.CSS_SELECTOR, ".quote").click()
        page.wait_for(lambda d: page.js("return document.activeElement.dataset.seq") == str(first), "the original in focus")
        self.assertIn("highlighted", self.message_node(page, first).get_attribute("class"))

        self.type_and_send(page, "my words")
        self.wait_for_texts(page, ["the original"] + [f"filler {n}" for n in range(1, 41)] + ["answer to this", "my words"], "sent")
        page.find("#composer-input").send_keys(Keys.ARROW_UP)
        page.wait_for(lambda d: page.find("#composer-input").get_attribute("value") == "my words", "↑ edits my last message")
        page.find("#composer-input").send_keys(" edited", Keys.ENTER)
        page.wait_for(lambda d: self.messages(page)[-1]["text"] == "my words edited", "the edit")

        page.find("#composer-input").send_keys("unfinished idea")
        self.open_chat(page, other)
        page.wait_for(lambda d: page.find(f'.chat-item[data-room-id="{room_id}"] .chat-item-preview').text == "[Draft] unfinished idea",
                      "the draft in the chat list")


class ProfileTests(WebClientTestCase):
    """Issue 15, profile: avatar colour and the theme switch."""

    def test_gh15_avatar_colour_and_theme(self):
        ann = self.user("ann")
        page = self.signed_in(ann)
        page.go("#/me")
        page.click('.color-choice[data-color="#7E57C2"]', "a colour")
        page.wait_for(lambda d: page.find('.color-choice[data-color="#7E57C2"]').get_attribute("aria-checked") == "true", "the colour chosen")
        self.assertEqual(api(self.base(), "GET", "/me", token=ann["token"])["avatarColor"], "#7E57C2")

        background = "return getComputedStyle(document.querySelector('.tab-panel')).backgroundColor"
        light = page.js(background)
        page.js("const s = document.getElementById('theme'); s.value = 'dark'; s.dispatchEvent(new Event('change'));")
        page.wait_for(lambda d: page.js(background) != light, "the dark theme while the system is light")
        page.driver.refresh()
        page.wait_for(lambda d: page.find_all("#theme"), "the Me tab after a reload")
        self.assertNotEqual(page.js(background), light, "the theme is kept")
        page.js("const s = document.getElementById('theme'); s.value = 'system'; s.dispatchEvent(new Event('change'));")
        page.wait_for(lambda d: page.js(background) == light, "back to the system's theme")



RENAME_LINES_JS = "return [...document.querySelectorAll('#messages .rename-line')].map((line) => line.textContent)"
TIMELINE_JS = """
return [...document.querySelectorAll('#messages .message[data-seq], #messages .rename-line')].map((node) =>
  node.classList.contains('rename-line') ? node.textContent : node.querySelector('.message-text')?.textContent ?? '');
"""


class RenameTests(WebClientTestCase):
    """Issue 15, groups: renaming a group or channel from the chat info; a rename shows as a line in the chat."""

    def group(self, owner, name, members=()):
        return api(self.base(), "POST", "/rooms", {"kind": "group", "name": name,
                                                   "members": [m["user"]["username"] for m in members]},
                   token=owner["token"])["id"]

    def rename(self, session, room_id, name):
        return api(self.base(), "PATCH", f"/rooms/{room_id}", {"name": name}, token=session["token"])

    def room_name(self, session, room_id):
        return next(r for r in api(self.base(), "GET", "/rooms", token=session["token"]) if r["id"] == room_id)["name"]

    def list_name(self, page, room_id):
        return page.js("return document.querySelector(`.chat-item[data-room-id=\"${arguments[0]}\"] .chat-item-name`)?.textContent ?? null",
                       room_id)

    def rename_lines(self, page):
        return page.js(RENAME_LINES_JS)

    def wait_for_rename_lines(self, page, lines, what):
        try:
            page.wait_for(lambda d: self.rename_lines(page) == lines, what)
        except AssertionError:
            self.fail(f"{what}: shown {self.rename_lines(page)}, not {lines}")

    def open_info(self, page):
        page.find("#room-info-button").click()
        page.wait_for(lambda d: page.find("#room-info").is_displayed(), "the chat info")

    def start_renaming(self, page):
        page.click("#rename-room", "Rename")
        page.wait_for(lambda d: page.js("return document.activeElement.id") == "room-name-input", "the name field focused")

    def type_name(self, page, name):
        field = page.find("#room-name-input")
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(Keys.DELETE)
        field.send_keys(name)

    def test_gh15_a_group_renamed_in_the_chat_info_shows_the_new_name_and_a_line_for_everyone(self):
        out = os.environ.get("SCREENSHOT_DIR", os.path.join(REPO, "docs", "screenshots"))
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        old_name = unique_name("Weekend ")
        room_id = self.group(ann, old_name, [bob])
        other = self.channel(ann, unique_name("Elsewhere "), [bob["user"]["username"]])["id"]
        self.socket(bob).send_message(room_id, "Where shall we go?")
        self.mark_read(ann, room_id)
        self.mark_read(bob, room_id)

        ann_page, bob_page = self.signed_in(ann), self.signed_in(bob)
        bob_page.js(NOTIFICATION_RECORDER_JS)
        for page in (ann_page, bob_page):
            self.open_chat(page, room_id)
            self.wait_for_texts(page, ["Where shall we go?"], "the group's message")

        # Ann renames the group from the chat info: Rename turns the title into a field, Enter saves.
        self.open_info(ann_page)
        self.assertEqual(ann_page.find("#room-info-title").text, old_name)
        self.start_renaming(ann_page)
        self.assertEqual(ann_page.find("#room-name-input").get_attribute("value"), old_name)
        self.assertEqual(ann_page.find("#room-name-input").accessible_name, "Group name")
        self.assertFalse(ann_page.find("#room-info-title").is_displayed(), "the field stands in for the title")
        self.type_name(ann_page, "Trip to Kyoto")
        ann_page.screenshot(os.path.join(out, "desktop-light-rename.png"))
        ann_page.find("#room-name-input").send_keys(Keys.ENTER)
        ann_page.wait_for(lambda d: ann_page.find("#room-info-title").text == "Trip to Kyoto", "the new name in the chat info")
        self.assertEqual(ann_page.find_all("#room-name-input"), [], "the field is gone")
        self.assertEqual(ann_page.js("return document.activeElement.id"), "rename-room", "the focus back on Rename")
        self.assertTrue(ann_page.find("#room-info").is_displayed(), "the chat info stays open")
        self.assertEqual(self.room_name(bob, room_id), "Trip to Kyoto")
        ann_page.find("#room-info .dialog-close").click()
        ann_page.wait_for(lambda d: ann_page.find("#chat-title").text == "Trip to Kyoto", "Ann's header")
        self.wait_for_rename_lines(ann_page, ["You renamed the group to “Trip to Kyoto”"], "Ann's line")

        # Bob's list and open chat follow without a reload, and the line is where it happened.
        bob_page.wait_for(lambda d: bob_page.find("#chat-title").text == "Trip to Kyoto", "Bob's header")
        bob_page.wait_for(lambda d: self.list_name(bob_page, room_id) == "Trip to Kyoto", "Bob's chat list")
        self.wait_for_rename_lines(bob_page, ["Ann Lee renamed the group to “Trip to Kyoto”"], "Bob's line")
        # Announced politely, like a message (by username when the profile was not looked up yet).
        self.assertIn(bob_page.find("#message-announcer").get_attribute("textContent"),
                      [f"{name} renamed the group to “Trip to Kyoto”" for name in ("Ann Lee", ann["user"]["username"])])
        self.assertEqual(bob_page.js(TIMELINE_JS), ["Where shall we go?", "Ann Lee renamed the group to “Trip to Kyoto”"])
        self.assertEqual(bob_page.find(f'.chat-item[data-room-id="{room_id}"] .chat-item-preview').text, "You: Where shall we go?",
                         "a rename is not the last message")
        bob_page.find("#room-info-button").click()
        bob_page.wait_for(lambda d: bob_page.find("#room-info-title").text == "Trip to Kyoto", "the name in Bob's chat info")
        bob_page.find("#room-info .dialog-close").click()
        self.assertEqual([m["text"] for m in self.messages(bob_page)], ["Where shall we go?"], "the line is no message")
        bob_page.js("document.activeElement?.blur()")
        bob_page.screenshot(os.path.join(out, "desktop-light-rename-line.png"))
        bob_page.set_dark(True)
        bob_page.wait_for(lambda d: rgb(bob_page.find(".chat-pane").value_of_css_property("background-color")) == DARK_BACKGROUND,
                          "the dark scheme")
        bob_page.screenshot(os.path.join(out, "desktop-dark-rename-line.png"))
        violations = axe_violations(bob_page, "rename line dark")
        bob_page.set_dark(False)
        violations += axe_violations(bob_page, "rename line light")
        self.assertEqual(violations, [], "\n".join(violations))

        # Renamed while Bob looks at another chat: no unread badge, no notification, and markup stays text.
        bob_page.go("#/me")
        bob_page.click("#notify-desktop", "Desktop notifications")
        bob_page.wait_for(lambda d: bob_page.find("#notify-desktop").is_selected(), "notifications on")
        bob_page.go("#/chats")
        tricky = "<img src=x onerror=alert(1)> Kyoto"
        self.rename(ann, room_id, tricky)
        bob_page.wait_for(lambda d: self.list_name(bob_page, room_id) == tricky, "the second name in Bob's list")
        self.socket(ann).send_message(other, "a message after the rename")
        bob_page.wait_for(lambda d: bob_page.js("return window.__notifications.length") >= 1, "a notification")
        time.sleep(0.5)
        self.assertEqual(bob_page.js("return window.__notifications.map((n) => n.body)"), ["Ann Lee: a message after the rename"],
                         "a notification for the message, none for the rename")
        self.assertIsNone(self.badge(bob_page, room_id), "a rename is not unread")
        ann_page.wait_for(lambda d: ann_page.find("#chat-title").text == tricky, "the renamed-again header on Ann's side")
        self.wait_for_rename_lines(ann_page, ["You renamed the group to “Trip to Kyoto”", f"You renamed the group to “{tricky}”"],
                                   "both lines on Ann's side")

        # After a reload the history shows both lines and the newest name stays.
        bob_page.driver.refresh()
        bob_page.wait_for(lambda d: bob_page.find_all("#chat-list"), "the chat list after a reload")
        self.open_chat(bob_page, room_id)
        self.wait_for_rename_lines(bob_page, ["Ann Lee renamed the group to “Trip to Kyoto”", f"Ann Lee renamed the group to “{tricky}”"],
                                   "both lines from the history")
        self.assertEqual(bob_page.find("#chat-title").text, tricky)
        self.assertEqual(self.list_name(bob_page, room_id), tricky)
        self.assertEqual(bob_page.find_all("#messages img:not(.attachment-image)"), [], "the name is shown as text")
        self.assert_no_alerts(ann_page, bob_page)

    def test_gh15_an_older_rename_in_an_older_page_does_not_bring_the_old_name_back(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        room_id = self.group(ann, unique_name("Book club "), [bob])
        self.rename(ann, room_id, "Readers")
        seed(bob, room_id, 60, prefix="chapter")
        self.rename(bob, room_id, "Readers united")
        self.mark_read(ann, room_id)
        page = self.signed_in(ann)
        self.open_chat(page, room_id)
        self.wait_for_rename_lines(page, ["Bob Chen renamed the group to “Readers united”"], "the newest page's line")
        self.assertEqual(page.find("#chat-title").text, "Readers united")
        for _ in range(10):
            if self.rename_lines(page)[0].startswith("You"):
                break
            page.js("document.getElementById('messages').scrollTop = 0")
            time.sleep(0.5)
        self.wait_for_rename_lines(page, ["You renamed the group to “Readers”", "Bob Chen renamed the group to “Readers united”"],
                                   "the older line loaded by scrolling up")
        self.assertEqual(page.js(TIMELINE_JS)[:2], ["You renamed the group to “Readers”", "chapter 1"])
        time.sleep(0.5)
        self.assertEqual(page.find("#chat-title").text, "Readers united", "the older rename did not win")
        self.assertEqual(self.list_name(page, room_id), "Readers united")

        page.driver.refresh()
        page.wait_for(lambda d: page.find_all("#chat-list"), "the chat list after a reload")
        self.open_chat(page, room_id)
        page.wait_for(lambda d: "Bob Chen renamed the group to “Readers united”" in self.rename_lines(page), "the line after a reload")
        self.assertEqual(page.find("#chat-title").text, "Readers united")
        self.assertEqual(self.list_name(page, room_id), "Readers united")

    def test_gh15_a_refused_rename_shows_why_and_keeps_the_name(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        name = unique_name("Keep ")
        room_id = self.group(ann, name, [bob])
        page = self.signed_in(ann)
        self.open_chat(page, room_id)
        self.open_info(page)
        self.start_renaming(page)

        def refused(what, expected):
            page.wait_for(lambda d: page.find("#rename-error").text == expected, what)
            self.assertEqual(page.find("#room-name-input").get_attribute("aria-invalid"), "true")
            self.assertEqual(page.js("return document.activeElement.id"), "room-name-input", "the focus stays in the field")
            self.assertEqual(page.find("#chat-title").text, name)
            self.assertEqual(self.list_name(page, room_id), name)
            self.assertEqual(self.room_name(ann, room_id), name)

        self.type_name(page, "    ")
        page.find("#room-name-input").send_keys(Keys.ENTER)
        refused("the error for spaces only", "Names are 1–64 characters.")
        self.type_name(page, "x" * 65)
        self.assertEqual(page.find("#rename-error").text, "", "typing clears the error")
        page.find("#rename-save").click()
        refused("the error for 65 characters", "Names are 1–64 characters.")
        self.assertEqual(page.find("#room-name-input").get_attribute("value"), "x" * 65, "what was typed stays to be fixed")
        page.screenshot(os.path.join(os.environ.get("SCREENSHOT_DIR", os.path.join(REPO, "docs", "screenshots")),
                                     "desktop-light-rename-error.png"))
        violations = axe_violations(page, "rename field with an error")
        self.assertEqual(violations, [], "\n".join(violations))

        # Escape leaves the field, not the dialog; the title is the old name.
        page.find("#room-name-input").send_keys(Keys.ESCAPE)
        page.wait_for(lambda d: not page.find_all("#room-name-input"), "the field closed")
        self.assertTrue(page.find("#room-info").is_displayed(), "the chat info stays open")
        self.assertEqual(page.find("#room-info-title").text, name)
        self.assertEqual(page.js("return document.activeElement.id"), "rename-room")
        self.assertEqual(self.rename_lines(page), [])
        page.find("#room-info .dialog-close").click()

        # A channel someone else created: the server refuses, and the reason is said plainly.
        channel = self.channel(bob, unique_name("Bob's "), [ann["user"]["username"]])
        self.open_chat(page, channel["id"])
        self.open_info(page)
        self.start_renaming(page)
        self.type_name(page, "Mine now")
        page.find("#rename-save").click()
        page.wait_for(lambda d: page.find("#rename-error").text == "Only the person who created this channel can rename it.",
                      "the error for someone else's channel")
        self.assertEqual(page.find("#room-name-input").accessible_name, "Channel name")
        self.assertEqual(self.room_name(ann, channel["id"]), channel["name"])
        page.find("#rename-cancel").click()
        page.wait_for(lambda d: page.find("#room-info-title").text == channel["name"], "the old title")
        page.find("#room-info .dialog-close").click()

        # Too many renames: the server says when to try again. (The field is ready first: the budget refills.)
        self.open_chat(page, room_id)
        self.open_info(page)
        self.start_renaming(page)
        self.type_name(page, "One more")
        for number in range(30):
            try:
                self.rename(ann, room_id, f"{name} {number}")
            except ApiError as error:
                self.assertEqual(error.status, 429)
                break
        else:
            self.fail("renames were never limited")
        page.find("#room-name-input").send_keys(Keys.ENTER)
        current = self.room_name(ann, room_id)
        page.wait_for(lambda d: re.fullmatch(r"Too many attempts\. Try again in \d+ s\.", page.find("#rename-error").text),
                      "the rate limit with its wait")
        page.wait_for(lambda d: page.find("#chat-title").text == current, "the header with the last accepted name")
        self.assertEqual(self.room_name(ann, room_id), current)
        self.assert_no_alerts(page)

    def test_gh15_direct_chats_and_the_lobby_offer_no_rename(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        room_id = self.direct_room(ann, bob)
        group_id = self.group(bob, unique_name("Renamable "), [ann])
        page = self.signed_in(ann)
        for room, offered in ((room_id, False), ("lobby", False), (group_id, True)):
            self.open_chat(page, room)
            self.open_info(page)
            page.wait_for(lambda d: page.find("#room-info-title").text, "the title")
            self.assertEqual(bool(page.find_all("#rename-room")), offered, f"Rename offered in {room}")
            page.find("#room-info .dialog-close").click()



FOLDING_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "folding")

# Delivers each case of a folding vector to a fresh Store of the page's own store.js, step by step with the methods
# the client uses (a live frame: applyLiveEvent; a history page: applyHistoryPage), and reads the room's messages
# back. Returns {file: {delivery: messages, or {error}}}.
FOLDING_JS = """
const [vectors, done] = [arguments[0], arguments[arguments.length - 1]];
import('/js/store.js').then(({ Store }) => {
  const results = {};
  for (const [file, vector] of Object.entries(vectors)) {
    results[file] = {};
    for (const delivery of vector.deliveries) {
      try {
        const store = new Store({ id: 'C0000000-0000-0000-0000-00000000000C', username: 'cat', displayName: 'Cat' });
        const roomID = vector.events[0].room;
        store.upsertRoom({ id: roomID, kind: 'group', name: 'Folding', latestSeq: 0, lastReadSeq: 0, unreadCount: 0 });
        delivery.steps.forEach((step, index) => {
          for (const event of step.live ?? []) store.applyLiveEvent(structuredClone(event), { live: true });
          if (step.page) store.applyHistoryPage(roomID, { messages: structuredClone(step.page), hasMore: false }, { newest: index === 0 });
        });
        results[file][delivery.name] = store.orderedMessages(roomID).map((message) => ({
          seq: message.seq,
          text: message.text,
          editedAt: message.editedAt ?? null,
          deleted: message.deleted ?? false,
          reactions: message.reactions ?? [],
        }));
      } catch (error) {
        results[file][delivery.name] = { error: String(error?.stack ?? error) };
      }
    }
  }
  done(results);
}, (error) => done({ error: String(error) }));
"""


class FoldingVectorTests(WebClientTestCase):
    """Issue 11: store.js folds edits, deletes and reactions into messages as the shared vectors in
    Tests/Fixtures/folding/ say, whichever way the events arrive (live, twice, in pages, pages out of order)."""

    def test_every_delivery_of_every_folding_vector_shows_the_expected_messages(self):
        vectors = {}
        for name in sorted(os.listdir(FOLDING_DIR)):
            if name.endswith(".json"):
                with open(os.path.join(FOLDING_DIR, name), encoding="utf-8") as file:
                    vectors[name] = json.load(file)
        self.assertEqual(len(vectors), 4, f"the vectors in {FOLDING_DIR}")
        page = self.browser()
        page.open("#/chats")
        page.wait_for(lambda d: page.find_all("#auth-form"), "the page")
        results = page.driver.execute_async_script(FOLDING_JS, vectors)
        self.assertNotIn("error", results, "store.js could not be imported")
        for name, vector in vectors.items():
            for delivery in vector["deliveries"]:
                with self.subTest(vector=name, delivery=delivery["name"]):
                    self.assert_folded(f"{name}, delivery {delivery['name']!r}", results[name][delivery["name"]],
                                       vector["expected"])

    def assert_folded(self, where, shown, expected):
        if isinstance(shown, dict):
            self.fail(f"{where}: store.js threw {shown.get('error')}")
        self.assertEqual([message["seq"] for message in shown], [message["seq"] for message in expected],
                         f"{where}: the seqs of the messages")
        for message, wanted in zip(shown, expected):
            for field in ("text", "editedAt", "deleted", "reactions"):
                self.assertEqual(message[field], wanted[field], f"{where}: message {wanted['seq']}, field {field!r}")


if __name__ == "__main__":
    unittest.main()
