"""Test harness for the web client: the real server as a child process, a small REST and WebSocket client made from
the standard library (to seed data), and headless Chromium sessions through Selenium."""

import atexit
import base64
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
import zlib

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, WebDriverException
from selenium.webdriver.chrome.service import Service as ChromeService
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

# Generous: CI machines are small, and the server may be under load from a parallel build.
TIMEOUT = float(os.environ.get("WEB_TEST_TIMEOUT", "45"))
REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PASSWORD = "correct horse battery"


# MARK: the server


class ServerProcess:
    """The chat server on free ports with a temporary data directory; it can be stopped and started again on the
    same port and data, as a restart in production would."""

    LISTENING = re.compile(r"HTTP and WebSocket listening on http://[^:]+:(\d+)")
    TCP_LISTENING = re.compile(r"TCP text protocol listening on [^\s]+:(\d+)")

    def __init__(self, binary):
        self.binary = binary
        self.data_dir = tempfile.mkdtemp(prefix="swiftchat-web-")
        self.log_path = os.path.join(self.data_dir, "server.log")
        self.port = 0
        self.tcp_port = None
        self.process = None

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self, settings=()):
        """Starts the server; `settings` are more flags for this run only (`["--max-message-bytes", "200"]`)."""
        log = open(self.log_path, "a")
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--tcp-port", "0", "--data-dir", self.data_dir,
             "--bcrypt-cost", "4",
             # Every browser comes from 127.0.0.1: per-address limits would count them as one person.
             "--registrations-per-hour", "100000", "--max-connections-per-address", "100000",
             "--tutorial-send-burst", "100000", "--tutorial-send-rate", "100000",
             # Tests seed hundreds of messages through the socket: at the default 20 at once, then 10 a second, seeding
             # was most of the time of the tests that page through history.
             "--send-burst", "100000", "--send-rate", "100000",
             # A stop is a test's outage or the end of a test's own server: no load balancer is to be told first.
             "--drain-seconds", "0", "--web-root", os.path.join(REPO, "Public"),
             # A link in a message would be fetched from the internet: test_previews turns previews on, on loopback.
             "--metrics-port", "0", "--link-previews", "false", *settings],
            stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}:\n{self.exit_report()}")
            log_text = open(self.log_path).read().split("--- start ---")[-1]
            match = self.LISTENING.search(log_text)
            tcp = self.TCP_LISTENING.search(log_text)
            if match and tcp:
                self.port = int(match.group(1))
                self.tcp_port = int(tcp.group(1))
                if self.ready():
                    return
            time.sleep(0.1)
        raise RuntimeError(f"the server did not start in {TIMEOUT} s:\n{self.log_tail()}")

    def ready(self):
        try:
            with urllib.request.urlopen(self.base_url + "/", timeout=2) as response:
                return response.status == 200
        except (urllib.error.URLError, OSError):
            return False

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        # Marks where the next start's log lines begin, so its port is read from them and not from an old line.
        with open(self.log_path, "a") as log:
            log.write("\n--- start ---\n")

    def restart(self):
        self.stop()
        self.start()

    def admin(self, *arguments):
        """Runs `chat-server admin ARGUMENTS` on this server's data, as its operator would (PROTOCOL.md §10), and
        returns what it printed: `server.admin("grant", "ann")` makes ann an administrator."""
        completed = subprocess.run([self.binary, "admin", *arguments, "--data-dir", self.data_dir],
                                   capture_output=True, text=True, timeout=TIMEOUT)
        if completed.returncode != 0:
            raise RuntimeError(f"chat-server admin {' '.join(arguments)} exited with {completed.returncode}:\n{completed.stderr}")
        return completed.stdout

    def log_tail(self, lines=40):
        try:
            return "".join(open(self.log_path).readlines()[-lines:])
        except OSError:
            return ""

    def exit_report(self):
        """What explains an exit: a crash's report from its first line (the crashed thread's backtrace comes first, and
        the other threads' after it), else the log's last lines."""
        try:
            text = open(self.log_path).read().split("--- start ---")[-1]
        except OSError:
            return ""
        crash = text.find("Program crashed")
        return "\n".join(text[crash:].splitlines()[:80]) if crash >= 0 else self.log_tail()

    def cleanup(self):
        self.stop()
        shutil.rmtree(self.data_dir, ignore_errors=True)


def start_server_from_env():
    binary = os.environ.get("SWIFTCHAT_SERVER_BIN")
    if not binary:
        raise RuntimeError("SWIFTCHAT_SERVER_BIN is not set (run the tests through Tests/Web/run.sh)")
    server = ServerProcess(os.path.abspath(binary))
    with open(server.log_path, "a") as log:
        log.write("--- start ---\n")
    server.start()
    return server


# MARK: REST


class ApiError(Exception):
    def __init__(self, status, body):
        super().__init__(f"{status}: {body}")
        self.status = status
        self.body = body


def api(base_url, method, path, body=None, token=None, raw=None, content_type=None):
    headers = {}
    data = None
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if raw is not None:
        data = raw
        headers["Content-Type"] = content_type or "application/octet-stream"
    elif body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(base_url + "/api/v1" + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            text = response.read().decode()
            return json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        raise ApiError(error.code, error.read().decode()) from None


def unique_name(prefix):
    return f"{prefix}{uuid.uuid4().hex[:8]}"


def register(base_url, username, display_name=None):
    body = {"username": username, "password": PASSWORD}
    if display_name:
        body["displayName"] = display_name
    return api(base_url, "POST", "/register", body)


# MARK: WebSocket (RFC 6455 client, text frames only, enough to seed and observe)


class WebSocketClient:
    def __init__(self, base_url, token, path=None):
        """The server's WebSocket with `token`, or another WebSocket of that host at `path` (DevTools: see DevTools)."""
        host, port = re.match(r"http://([^:/]+):(\d+)", base_url).groups()
        self.sock = socket.create_connection((host, int(port)), timeout=TIMEOUT)
        key = base64.b64encode(os.urandom(16)).decode()
        path = path or f"/api/v1/ws?token={token}"
        self.sock.sendall((
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            response += chunk
        head, self.buffer = response.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise ConnectionError(head.decode(errors="replace"))
        self.lock = threading.Lock()

    def send(self, frame):
        payload = json.dumps(frame).encode()
        header = bytearray([0x81])
        if len(payload) < 126:
            header.append(0x80 | len(payload))
        elif len(payload) < 65536:
            header.append(0x80 | 126)
            header += struct.pack("!H", len(payload))
        else:
            header.append(0x80 | 127)
            header += struct.pack("!Q", len(payload))
        mask = os.urandom(4)
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        with self.lock:
            self.sock.sendall(bytes(header) + mask + masked)

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def receive(self):
        """The next JSON frame (pings are answered, other control frames skipped)."""
        while True:
            first, second = self._read(2)
            opcode = first & 0x0F
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self._read(8))[0]
            payload = self._read(length)
            if opcode == 0x1:
                return json.loads(payload.decode())
            if opcode == 0x9:
                with self.lock:
                    mask = os.urandom(4)
                    self.sock.sendall(bytes([0x8A, 0x80 | len(payload)]) + mask
                                      + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
            elif opcode == 0x8:
                raise ConnectionError("closed by the server")

    def receive_until(self, predicate, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            frame = self.receive()
            if predicate(frame):
                return frame
        raise TimeoutError("no matching frame")

    def start(self, rooms=None):
        """Waits for hello and resumes (every room from now on unless `rooms` says otherwise)."""
        hello = self.receive_until(lambda frame: frame.get("type") == "hello")
        self.send({"type": "resume", "rooms": rooms or {}})
        return hello

    def send_message(self, room, text, **fields):
        """Sends a message and waits for its ack. Returns its seq."""
        return self.request({"type": "send", "room": room, "text": text, **fields})

    def request(self, frame):
        """Sends an acknowledged frame (send, edit, delete, react) and waits for the ack, retrying with the same
        clientMsgID when rate limited. Returns the event's seq."""
        client_id = uuid.uuid4().hex
        while True:
            self.send({**frame, "clientMsgID": client_id})
            answer = self.receive_until(lambda f: f.get("clientMsgID") == client_id and f.get("type") == "ack"
                                        or f.get("type") == "error" and f.get("ref") == client_id)
            if answer["type"] == "ack":
                return answer["seq"]
            if answer.get("code") != "rate_limited":
                raise RuntimeError(f"{frame['type']} failed: {answer}")
            time.sleep(0.3)

    def close(self):
        try:
            self.sock.sendall(bytes([0x88, 0x82]) + b"\0\0\0\0" + struct.pack("!H", 1000))
        except OSError:
            pass
        self.sock.close()


# MARK: images


def png_bytes(width=64, height=48, rgb=(7, 193, 96)):
    """A solid-colour PNG, made here so the tests need no image files."""
    def chunk(kind, data):
        return struct.pack("!I", len(data)) + kind + data + struct.pack("!I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    row = b"\x00" + bytes(rgb) * width
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack("!IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * height))
            + chunk(b"IEND", b""))


# MARK: browsers


ALERT_TRAP = """
window.__alerts = [];
for (const name of ['alert', 'confirm', 'prompt']) {
  window[name] = function (message) {
    window.__alerts.push(name + ': ' + String(message));
    return name === 'confirm' ? true : null;
  };
}
"""


class Chromium:
    """One headless Chromium under chromedriver, kept from test to test: starting one costs seconds, which over a
    hundred tests was most of the suite's time. Each Browser gets a browser context of its own in it (as an incognito
    window: its own cookies, storage, IndexedDB, service workers, caches and permissions) and a new tab there (its own
    emulation and injected scripts), and the context is thrown away when the Browser quits. Between Browsers a blank
    tab keeps the session alive (chromedriver ends it with its last tab); it is closed while a Browser is open, so a
    test sees only its own tabs, as in a browser of its own."""

    def __init__(self, flags=()):
        # Flags a kind of Browser needs (a fake microphone) make a Chromium of their own, pooled apart.
        self.flags = tuple(flags)
        options = webdriver.ChromeOptions()
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         "--lang=en-US", "--hide-scrollbars") + self.flags:
            options.add_argument(argument)
        options.add_experimental_option("prefs", {"intl.accept_languages": "en-US,en"})
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        binary = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
        if binary:
            options.binary_location = binary
        driver_path = shutil.which("chromedriver")
        service = ChromeService(executable_path=driver_path) if driver_path else ChromeService()
        self.driver = webdriver.Chrome(options=options, service=service)
        self.driver.set_page_load_timeout(TIMEOUT)
        self.placeholder = self.driver.current_window_handle
        # Contexts are made through a browser-wide DevTools connection: a page's (execute_cdp_cmd) may not.
        self.devtools = DevTools(self)

    def open_context(self, width, height):
        """A new browser context with one tab of that size, which the driver then drives; returns the context's id."""
        context_id = self.devtools.call("Target.createBrowserContext")["browserContextId"]
        tab = self.devtools.call("Target.createTarget", {
            "url": "about:blank", "browserContextId": context_id, "width": width, "height": height})["targetId"]
        self.driver.switch_to.window(tab)  # chromedriver's window handles are target ids
        self.devtools.call("Target.closeTarget", {"targetId": self.placeholder})
        self.driver.get_log("browser")  # drained: the console of an earlier Browser's pages is not this one's
        return context_id

    def close_context(self, context_id):
        """Opens a blank tab to keep the session, closes every other (a test may have opened some) and throws the
        context away."""
        self.placeholder = self.devtools.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.driver.switch_to.window(self.placeholder)
        for handle in self.driver.window_handles:
            if handle != self.placeholder:
                self.devtools.call("Target.closeTarget", {"targetId": handle})
        self.devtools.call("Target.disposeBrowserContext", {"browserContextId": context_id})

    def quit(self):
        self.devtools.close()
        try:
            self.driver.quit()
        except WebDriverException:
            pass


idle_chromiums = []


def take_chromium(flags=()):
    """An idle Chromium started with `flags`, or a new one when every such one is in use (a test with two people has
    two)."""
    for index in range(len(idle_chromiums) - 1, -1, -1):
        if idle_chromiums[index].flags == tuple(flags):
            return idle_chromiums.pop(index)
    return Chromium(flags)


def quit_idle_chromiums():
    while idle_chromiums:
        idle_chromiums.pop().quit()


atexit.register(quit_idle_chromiums)


class Browser:
    """One browser of one person: a fresh browser context and tab in a reused Chromium (see Chromium), so its own
    localStorage, cookies and service workers, as a browser profile of its own would have. A subclass that needs
    Chromium started with more flags names them in CHROMIUM_FLAGS."""

    CHROMIUM_FLAGS = ()

    def __init__(self, base_url, width=1280, height=800, dark=False, trap_alerts=True):
        self.base_url = base_url
        self.chromium = take_chromium(self.CHROMIUM_FLAGS)
        self.driver = self.chromium.driver
        self.context_id = self.chromium.open_context(width, height)
        self.set_viewport(width, height)
        self.set_dark(dark)
        if trap_alerts:
            # Runs before the page's own scripts, outside its CSP: any alert() an injection managed to call is recorded.
            self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": ALERT_TRAP})

    def set_viewport(self, width, height, mobile=False):
        """A desktop window, or a phone's screen (`mobile`) with a touch screen: `(pointer: coarse)` and touch
        events, as on a real phone."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": mobile, "maxTouchPoints": 5 if mobile else 1})

    def set_dark(self, dark):
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})

    def open(self, fragment="#/chats"):
        self.driver.get(f"{self.base_url}/{fragment}")

    def sign_in_with(self, session):
        """Starts signed in as `session` (a §6 session), the way a reload after signing in would."""
        # The session is stored from a small file of the app's origin, so that the app loads once, already signed in.
        self.driver.get(f"{self.base_url}/js/dom.js")
        self.driver.execute_script("localStorage.setItem('swiftchat.session', arguments[0])", json.dumps(session))
        self.open("#/chats")
        self.wait_for(lambda d: self.find_all("#chat-list"), "the chat list")

    def go(self, fragment):
        """Moves inside the app without reloading it."""
        self.driver.execute_script("location.hash = arguments[0]", fragment)

    def wait_for(self, condition, what, timeout=TIMEOUT):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.1,
                                 ignored_exceptions=(WebDriverException,)).until(lambda driver: condition(driver))
        except Exception as error:
            raise AssertionError(f"timed out waiting for {what}\n{self.console_errors()}") from error

    def find(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def click(self, selector, what):
        """Clicks the element as soon as it is there, finding it again if the page rebuilt it in between (lists
        re-render when presence, unread counts or messages change, which leaves a found node stale)."""
        self.wait_for(lambda d: self.find(selector).click() or True, what)

    def find_all(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def texts(self, selector):
        """The rendered text of every element `selector` matches, read in one step: lists re-render when presence,
        unread counts or messages change, and reading element by element can meet a node the page just replaced."""
        return self.js("return [...document.querySelectorAll(arguments[0])]"
                       ".map(node => node.innerText.replace(/\\s+/g, ' ').trim())", selector)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def alerts(self):
        try:
            alert = self.driver.switch_to.alert
            text = alert.text
            alert.dismiss()
            return [text]
        except NoAlertPresentException:
            return self.js("return window.__alerts || []")

    def console_errors(self):
        try:
            return "\n".join(entry["message"] for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE")
        except WebDriverException:
            return ""

    def screenshot(self, path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        self.driver.save_screenshot(path)

    def quit(self):
        """Gives the Chromium back for the next Browser, with this one's context gone; a Chromium that cannot be
        cleaned (it crashed, or hangs) is quit instead, so no state leaks into the next test."""
        chromium, self.chromium = self.chromium, None
        if chromium is None:
            return
        try:
            chromium.close_context(self.context_id)
        except (WebDriverException, OSError, RuntimeError):
            chromium.quit()
            return
        idle_chromiums.append(chromium)


class DevTools:
    """A DevTools Protocol connection of its own to a Browser's Chromium: what chromedriver's execute_cdp_cmd cannot
    do, which is hear events (ServiceWorker.workerRegistrationUpdated names a registration's id) and talk to other
    targets than the page (the service worker)."""

    def __init__(self, browser):
        """`browser`: a Browser or a Chromium (anything with its `driver`)."""
        address = browser.driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen(f"http://{address}/json/version", timeout=TIMEOUT) as response:
            url = json.load(response)["webSocketDebuggerUrl"]
        host, path = re.match(r"ws://([^/]+)(/.*)", url).groups()
        self.socket = WebSocketClient(f"http://{host}", None, path=path)
        self.last_id = 0
        self.events = []

    def call(self, method, params=None, session=None):
        """Runs a command (in an attached target's `session`, or the browser's) and returns its result."""
        self.last_id += 1
        command = {"id": self.last_id, "method": method, "params": params or {}}
        if session:
            command["sessionId"] = session
        self.socket.send(command)
        while True:
            frame = self.socket.receive()
            if frame.get("id") == self.last_id:
                if "error" in frame:
                    raise RuntimeError(f"{method}: {frame['error']}")
                return frame["result"]
            self.events.append(frame)

    def event(self, method, predicate=lambda params: True):
        """The params of the first event `method` (heard so far or next) that `predicate` accepts."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            for event in self.events:
                if event.get("method") == method and predicate(event["params"]):
                    self.events.remove(event)
                    return event["params"]
            self.events.append(self.socket.receive())
        raise TimeoutError(f"no {method} event")

    def attach(self, target_type, url_prefix):
        """A session on the first target of that type ('page', 'service_worker') whose URL starts with `url_prefix`."""
        targets = self.call("Target.getTargets")["targetInfos"]
        target = next(t for t in targets if t["type"] == target_type and t["url"].startswith(url_prefix))
        return self.call("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})["sessionId"]

    def close(self):
        self.socket.close()


# MARK: accessibility


def axe_violations(browser, what, impacts=("minor", "moderate", "serious", "critical")):
    """Runs axe-core (PyPI's axe-selenium-python bundles it) on the page as it is now; returns the violations of the
    given impacts (any, unless told) as readable lines (empty when there are none)."""
    from axe_selenium_python import Axe
    axe = Axe(browser.driver)
    # axe-core is half a megabyte of script: it is put in a page once, not at each check of it.
    if not browser.js("return typeof window.axe === 'object'"):
        axe.inject()
    results = axe.run()
    lines = []
    for violation in results["violations"]:
        if violation.get("impact") not in impacts:
            continue
        for node in violation["nodes"][:5]:
            lines.append(f"{what}: {violation['id']} ({violation['impact']}): {node['target']} {node.get('failureSummary', '')[:200]}")
    return lines
