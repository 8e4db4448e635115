"""What the browser tests of the web client have in common (see run.sh and the test_*.py files, one per
area): the one server they all use, the base test case with its helpers for people, rooms and pages, and the
scripts that tests of several areas run in the page."""

import atexit
import time
import unittest
import uuid

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from harness import PASSWORD, Browser, ServerProcess, WebSocketClient, api, register, start_server_from_env, unique_name


class SharedServer:
    """The one server that every test module uses, as when they were one file: the first module's setUpModule
    starts it on free ports with a temporary data directory, and it is stopped and removed when the run ends.
    Attributes are the running ServerProcess's: base_url, tcp_port, stop(), start()…"""

    def __init__(self):
        self.current = None

    def __getattr__(self, name):
        if self.current is None:
            raise RuntimeError("no server is running: the test module must import setUpModule from webcase")
        return getattr(self.current, name)


server = SharedServer()


def setUpModule():
    """Every test module imports this: the first starts the server; a later one starts it again if a test left it
    stopped, so one failed restart does not fail the modules after it."""
    if server.current is None:
        server.current = start_server_from_env()
        atexit.register(server.current.cleanup)
    elif server.current.process is None:
        server.current.start()


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


# Keeps the page's socket (window.__socket) once it sends anything, so deliver_frame can hand it a frame.
SOCKET_CAPTURE_JS = """
const originalSend = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  window.__socket = this;
  return originalSend.call(this, data);
};
"""


def capture_socket(browser):
    """From the next page load on, the page's socket can be handed frames (deliver_frame)."""
    browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SOCKET_CAPTURE_JS})


def deliver_frame(browser, frame):
    """Hands the page's socket a frame as if the server had sent it (see capture_socket): for what the shared server
    does not send yet, such as a `preview` event."""
    browser.wait_for(lambda d: browser.js("return Boolean(window.__socket)"), "the page's socket")
    browser.js("window.__socket.dispatchEvent(new MessageEvent('message', {data: JSON.stringify(arguments[0])}))", frame)


def arm_sabotage(browser, frame_type):
    browser.js("window.__sabotage = {type: arguments[0], room: arguments[1]}", frame_type, str(uuid.uuid4()).upper())


NOTIFICATION_RECORDER_JS = """
window.__notifications = [];
window.Notification = class {
  constructor(title, options) { window.__notifications.push({ title, body: options && options.body }); }
  static requestPermission() { return Promise.resolve('granted'); }
  static get permission() { return 'granted'; }
  close() {}
};
"""


def rgb(css_colour):
    """(r, g, b) of a computed CSS colour such as `rgb(7, 193, 96)` or `rgba(7, 193, 96, 1)`."""
    return tuple(int(float(part)) for part in css_colour[css_colour.index("(") + 1:-1].split(",")[:3])


DARK_BACKGROUND = (17, 17, 17)  # --bg in the dark scheme


def long_press(browser, element):
    """A long press on a touch screen (a phone's viewport), as a finger makes it: held still, then lifted."""
    box = browser.js("const r = arguments[0].getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2};", element)
    browser.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [box]})
    time.sleep(0.8)
    browser.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def seed(session, room_id, count, prefix="line"):
    client = WebSocketClient(server.base_url, session["token"])
    try:
        client.start()
        return [client.send_message(room_id, f"{prefix} {number}") for number in range(1, count + 1)]
    finally:
        client.close()


class WebClientTestCase(unittest.TestCase):
    def base(self):
        return server.base_url

    def browser(self, base_url=None, **options):
        """A browser on the shared server, or on the one at `base_url` (a server of the test's own)."""
        browser = Browser(base_url or self.base(), **options)
        self.addCleanup(browser.quit)
        return browser

    def own_server(self, settings=(), binary=None):
        """A server of this test's own, on ports and data of its own, started with more `settings` (for those the
        shared server must not change for everyone, such as `--registration invite`), from another `binary` when
        given (one with a feature the shared server's has not yet); removed when the test ends."""
        own = ServerProcess(binary or server.binary)
        self.addCleanup(own.cleanup)
        own.start(settings)
        return own

    def user(self, prefix, display_name=None, base_url=None):
        return register(base_url or self.base(), unique_name(prefix), display_name)

    def admin(self, prefix, display_name=None):
        """A new account that the operator made an administrator (`chat-server admin grant`), signed in again so
        its session's profile says so."""
        session = self.user(prefix, display_name)
        server.admin("grant", session["user"]["username"])
        return api(self.base(), "POST", "/login", {"username": session["user"]["username"], "password": PASSWORD})

    def open_user_page(self, page, username):
        """Me → Administration → Users, searched for `username`, then that account's page. The row is clicked only
        once the search's answer is the list: the first page (A–Z) may hold the same row, and a click on it as the
        search replaces the list lands on nothing."""
        page.go("#/me/admin/users")
        page.wait_for(lambda d: page.find_all("#admin-user-search"), "the user search")
        page.find("#admin-user-search").send_keys(username)

        def searched():
            rows = page.find_all("#admin-users a[data-username]")
            return page.find("#admin-users-status").text == "" and rows and all(
                username in row.get_attribute("data-username") for row in rows)
        page.wait_for(lambda d: searched(), f"the search for {username}")
        page.click(f'#admin-users a[data-username="{username}"]', f"{username} in the list")
        page.wait_for(lambda d: page.find_all("#user-active-toggle"), f"{username}'s page")

    def signed_in(self, session, **options):
        browser = self.browser(**options)
        browser.sign_in_with(session)
        return browser

    def phone(self, session, dark=False):
        """`session` signed in on a phone: 390×844 with a touch screen."""
        page = self.signed_in(session, width=390, height=844, dark=dark)
        page.set_viewport(390, 844, mobile=True)
        return page

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

    def light_colour(self, browser, where=".topbar"):
        return browser.find(f"{where} .status-light").value_of_css_property("background-color")

    def scroll_state(self, browser):
        return browser.js("const s = document.getElementById('messages');"
                          "return {top: s.scrollTop, atBottom: s.scrollHeight - s.scrollTop - s.clientHeight < 50,"
                          "        pill: !document.getElementById('new-messages-pill').hidden};")
