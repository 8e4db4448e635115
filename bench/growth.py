#!/usr/bin/env python3
"""How SwiftChat's costs grow with its data: issue 13's item 7, the section "How cost grows with work" of
docs/BENCHMARKS.md.

Fills a fresh server with a lobby of --messages messages (over /chat, as a tutorial client writes them, so every
message takes the real commit path) and --rooms channels (over /api/v1), restarts it, and measures: start-up time,
a history page (p50/p99), a resume of 1,000 missed messages, search for a rare word, two common words, a short
prefix, Chinese words inside sentences (a third of the lobby is Chinese) and a `from:` filter with a word (p50/p99), bytes on disk per message, and memory per idle room and per open room.

Only Python's standard library: a minimal WebSocket client is below. Run it through `scripts/bench.sh --growth`,
which builds the server, pins it to CPU 0 and this script to CPU 1; or by hand:

    taskset -c 1 bench/growth.py --server .build-release/release/chat-server --data-dir /tmp/growth -- --flags…

Arguments after `--` are passed to chat-server (bench.sh passes its lifted limits). With --reuse, a data directory
filled by an earlier run (same --messages and --rooms) is measured again without filling it.
"""

import argparse
import base64
import http.client
import json
import os
import random
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time
import urllib.parse

PASSWORD = "correct horse battery"


def log(text):
    print(f"# {text}", file=sys.stderr, flush=True)


def percentile(samples, fraction):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def summary_ms(samples):
    return {"p50_ms": round(percentile(samples, 0.50) * 1000, 2), "p99_ms": round(percentile(samples, 0.99) * 1000, 2),
            "samples": len(samples)}


# ---------------------------------------------------------------------------------------------------------------
# A WebSocket client of RFC 6455's text frames: enough for /chat and /api/v1/ws.
# ---------------------------------------------------------------------------------------------------------------
class WebSocket:
    def __init__(self, port, path):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
                          .encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self._receive()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise RuntimeError(f"no upgrade on {path}: {head.splitlines()[0].decode()}")

    def _receive(self):
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            raise RuntimeError("the server closed the connection")
        self.buffer += chunk

    @staticmethod
    def frame(text, opcode=0x1):
        payload = text.encode() if isinstance(text, str) else text
        mask = os.urandom(4)
        length = len(payload)
        if length < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
        elif length < 65536:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
        keys = (mask * (length // 4 + 1))[:length]
        masked = (int.from_bytes(payload, "big") ^ int.from_bytes(keys, "big")).to_bytes(length, "big")
        return head + mask + masked

    def send(self, text):
        self.sock.sendall(self.frame(text))

    def texts(self, block=True):
        """The text frames that have arrived (waiting for at least one when `block`); answers pings."""
        texts = []
        while True:
            while len(self.buffer) >= 2:
                opcode = self.buffer[0] & 0x0F
                length = self.buffer[1] & 0x7F
                start = 2
                if length == 126:
                    if len(self.buffer) < 4:
                        break
                    length, start = struct.unpack("!H", self.buffer[2:4])[0], 4
                elif length == 127:
                    if len(self.buffer) < 10:
                        break
                    length, start = struct.unpack("!Q", self.buffer[2:10])[0], 10
                if len(self.buffer) < start + length:
                    break
                payload = self.buffer[start:start + length]
                self.buffer = self.buffer[start + length:]
                if opcode == 0x1:
                    texts.append(payload)
                elif opcode == 0x9:
                    self.sock.sendall(self.frame(payload, opcode=0xA))
                elif opcode == 0x8:
                    raise RuntimeError(f"closed by the server: {payload[:2].hex()} {payload[2:].decode()}")
            if texts or not block:
                return texts
            self._receive()

    def close(self):
        try:
            self.sock.sendall(self.frame(struct.pack("!H", 1000), opcode=0x8))
        finally:
            self.sock.close()


# ---------------------------------------------------------------------------------------------------------------
# HTTP, one keep-alive connection per caller.
# ---------------------------------------------------------------------------------------------------------------
class API:
    def __init__(self, port, token=None):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.token = token

    def call(self, method, path, body=None, expect=(200, 201, 204)):
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        self.connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        if response.status not in expect:
            raise RuntimeError(f"{method} {path}: {response.status} {data[:200]!r}")
        return json.loads(data) if data else None

    def timed(self, path):
        started = time.perf_counter()
        self.call("GET", path)
        return time.perf_counter() - started

    @staticmethod
    def session(port, username):
        api = API(port)
        try:
            session = api.call("POST", "/api/v1/register", {"username": username, "password": PASSWORD})
        except RuntimeError:
            session = api.call("POST", "/api/v1/login", {"username": username, "password": PASSWORD})
        api.token = session["token"]
        return api


# ---------------------------------------------------------------------------------------------------------------
# The server.
# ---------------------------------------------------------------------------------------------------------------
class Server:
    def __init__(self, binary, data_dir, port, extra):
        self.command = ["taskset", "-c", "0", binary, "--port", str(port), "--tcp-port", str(port + 1),
                        "--metrics-port", str(port + 2), "--data-dir", data_dir, *extra]
        if not shutil.which("taskset"):
            self.command = self.command[3:]
        self.port = port
        self.process = None

    def start(self):
        """Starts the server; the seconds until it accepts connections, and until /readyz answers 200."""
        started = time.perf_counter()
        self.process = subprocess.Popen(self.command, stdout=subprocess.DEVNULL)
        listening = None
        while time.perf_counter() - started < 60:
            if self.process.poll() is not None:
                raise RuntimeError(f"chat-server exited with {self.process.returncode}")
            try:
                if listening is None:
                    socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                    listening = time.perf_counter() - started
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                connection.request("GET", "/readyz")
                if connection.getresponse().status == 200:
                    return listening, time.perf_counter() - started
            except OSError:
                pass
            time.sleep(0.005)
        raise RuntimeError("the server was not ready within 60 s")

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=60)

    def rss_kib(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        raise RuntimeError("no VmRSS")


# ---------------------------------------------------------------------------------------------------------------
# Filling.
# ---------------------------------------------------------------------------------------------------------------
# Chinese sentences for a third of the lobby (issue 32's mix): everyday words that stand inside runs of characters.
CHINESE = [
    "我们明天开会讨论预算，请大家准时参加",
    "请在周五前看完报告并给出意见",
    "今天的天气很好，我们去公园散步吧",
    "这个问题需要再讨论一下，明天给你答复",
    "项目进度比预期快，下周可以提前上线",
    "晚上一起吃饭吗？我知道一家很好的餐厅",
]


def message_text(index):
    """About 100 bytes: two words every message has, a word only this one has (`q` + its number in base 36); every
    third message in Chinese, with the same rare word."""
    rare = "q" + base36(index)
    if index % 3 == 2:
        return f"第{index}条：{CHINESE[index // 3 % len(CHINESE)]}（{rare}）"
    return f"note {index}: hello world, this is a line of ordinary chat in the lobby with the word {rare} in it."




def base36(number):
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        number, rest = divmod(number, 36)
        text = digits[rest] + text
        if number == 0:
            return text


def fill_lobby(port, count, poster=None, every=10_000):
    """Sends `count` messages over one /chat connection, keeping at most a window of them unanswered; with `poster`
    (an account's token), that account also sends one message per `every`."""
    socket_ = WebSocket(port, "/chat")
    posted = 0
    started = time.perf_counter()
    sent = received = 0
    window, burst = 4000, 400
    marker = b'"user":"Filler"'
    while received < count:
        room = min(burst, count - sent, window - (sent - received))
        if room > 0:
            frames = [WebSocket.frame(json.dumps({"message": message_text(i), "user": "Filler"}))
                      for i in range(sent, sent + room)]
            socket_.sock.sendall(b"".join(frames))
            sent += room
        for text in socket_.texts(block=sent - received >= window or sent == count):
            if marker in text:
                received += 1
            elif b'"error"' in text:
                raise RuntimeError(f"the server refused a message: {text[:200]!r}")
        while poster and posted < sent // every:
            posted += 1
            post(port, poster, f"p{posted}", f"poster update {posted}: the ordinary budget 预算 is on track")
        if sent % 100000 < burst and room > 0:
            log(f"filled {sent} of {count}")
    elapsed = time.perf_counter() - started
    socket_.close()
    return elapsed


def post(port, token, client_msg_id, text):
    """Sends one message to the lobby as an account, on a connection of its own (one that stayed open would receive
    the whole fill), and waits for its ack."""
    socket_ = WebSocket(port, f"/api/v1/ws?token={token}")
    socket_.send(json.dumps({"type": "send", "room": "lobby", "clientMsgID": client_msg_id, "text": text}))
    while not any(b'"type":"ack"' in text for text in socket_.texts()):
        pass
    socket_.close()


def fill_rooms(port, rooms):
    """Creates `rooms` channels, 10 per account (the creation limit), and a watcher account that joins them all."""
    creators = (rooms + 9) // 10
    ids = []
    for number in range(creators):
        api = API.session(port, f"creator{number:05d}")
        for index in range(min(10, rooms - len(ids))):
            ids.append(api.call("POST", "/api/v1/rooms", {"kind": "channel", "name": f"room {len(ids)}"})["id"])
        if number % 200 == 0:
            log(f"created {len(ids)} of {rooms} rooms")
    watcher = API.session(port, "watcher")
    for index, room in enumerate(ids):
        watcher.call("POST", f"/api/v1/rooms/{room}/join")
        if index % 2000 == 0:
            log(f"watcher joined {index} of {rooms} rooms")
    return ids


# ---------------------------------------------------------------------------------------------------------------
# Measuring.
# ---------------------------------------------------------------------------------------------------------------
def latest_seq(api):
    page = api.call("GET", "/api/v1/rooms/lobby/messages?limit=1")
    return page["messages"][-1]["seq"]


def history_pages(api, latest, samples):
    for _ in range(10):  # warm-up: the first requests open the database's read connections
        api.timed("/api/v1/rooms/lobby/messages?limit=50")
    times = []
    for _ in range(samples):
        before = random.randint(51, latest + 1)
        times.append(api.timed(f"/api/v1/rooms/lobby/messages?limit=50&before={before}"))
    return summary_ms(times)


def resumes(port, token, latest, samples, missed=1000):
    """Opens a modern connection per sample and times `resume` from sending it to the lobby's `resumed` frame.

    Frames are told apart by their bytes, as `open_rooms` does, and decoded only after the clock stops: decoding
    1,000 frames in Python (about 7 ms, more for Chinese text) is the load generator's time, not the server's."""
    times = []
    for _ in range(samples):
        socket_ = WebSocket(port, f"/api/v1/ws?token={token}")
        socket_.texts()  # hello
        started = time.perf_counter()
        socket_.send(json.dumps({"type": "resume", "rooms": {"lobby": latest - missed}}))
        received = []
        while not received or b'"type":"resumed"' not in received[-1]:
            received += socket_.texts()
        times.append(time.perf_counter() - started)
        socket_.close()
        frames = [json.loads(text) for text in received]
        replayed = sum(1 for frame in frames if frame.get("type") == "message" and frame.get("room") == "lobby")
        resumed = frames[-1]
        if replayed != missed or resumed.get("room") != "lobby" or not resumed.get("complete"):
            raise RuntimeError(f"resume replayed {replayed} of {missed} messages")
    return summary_ms(times)


def searches(api, query, samples):
    path = "/api/v1/search?" + urllib.parse.urlencode({"q": query, "limit": 20})
    found = len(api.call("GET", path)["results"])
    result = summary_ms([api.timed(path) for _ in range(samples)])
    result["results"] = found
    return result


def open_rooms(port, watcher, rooms):
    """Connects the watcher, a member of every room, and waits until the server follows each one for it."""
    socket_ = WebSocket(port, f"/api/v1/ws?token={watcher.token}")
    socket_.texts()  # hello
    started = time.perf_counter()
    socket_.send(json.dumps({"type": "resume", "rooms": {}}))
    resumed = 0
    while resumed < rooms:
        resumed += sum(1 for text in socket_.texts() if b'"type":"resumed"' in text)
    return socket_, time.perf_counter() - started


def data_bytes(data_dir):
    total = 0
    for name in os.listdir(data_dir):
        path = os.path.join(data_dir, name)
        if name.startswith("chat.sqlite") and os.path.isfile(path):
            total += os.path.getsize(path)
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True, help="the chat-server binary")
    parser.add_argument("--data-dir", required=True, help="its data directory (emptied first, unless --reuse)")
    parser.add_argument("--port", type=int, default=18580)
    parser.add_argument("--messages", type=int, default=1_000_000)
    parser.add_argument("--rooms", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=200, help="requests per measured figure")
    parser.add_argument("--reuse", action="store_true", help="measure a data directory filled by an earlier run")
    parser.add_argument("server_args", nargs="*", help="after --: passed to chat-server")
    options = parser.parse_args()
    if options.messages < 1000:
        parser.error("--messages must be at least 1000 (a resume of 1,000 messages is measured)")
    server = Server(options.server, options.data_dir, options.port, options.server_args)
    try:
        measure(options, server)
    finally:
        if server.process is not None and server.process.poll() is None:
            server.process.kill()
            server.process.wait()


def measure(options, server):
    result = {"messages": options.messages, "rooms": options.rooms}

    if not options.reuse:
        shutil.rmtree(options.data_dir, ignore_errors=True)
        os.makedirs(options.data_dir)
        server.start()
        time.sleep(2)
        result["empty_server_rss_kib"] = server.rss_kib()
        log(f"filling the lobby with {options.messages} messages over /chat")
        poster = API.session(options.port, "poster")
        seconds = fill_lobby(options.port, options.messages, poster=poster.token)
        result["fill_messages_per_s"] = round(options.messages / seconds)
        log(f"creating {options.rooms} rooms")
        fill_rooms(options.port, options.rooms)
        server.stop()

    result["bytes_on_disk"] = data_bytes(options.data_dir)
    result["bytes_on_disk_per_message"] = round(result["bytes_on_disk"] / options.messages)
    starts = []
    for _ in range(3):
        starts.append(server.start())
        server.stop()
    result["start_listening_s"] = round(sorted(s[0] for s in starts)[1], 3)
    result["start_ready_s"] = round(sorted(s[1] for s in starts)[1], 3)
    server.start()
    time.sleep(2)
    result["restarted_server_rss_kib"] = server.rss_kib()
    if "empty_server_rss_kib" in result:
        grown = result["restarted_server_rss_kib"] - result["empty_server_rss_kib"]
        result["idle_room_bytes"] = round(grown * 1024 / options.rooms)

    reader = API.session(options.port, "reader")
    latest = latest_seq(reader)
    log(f"measuring: the lobby's latest seq is {latest}")
    result["history_page_50"] = history_pages(reader, latest, options.samples)
    result["resume_1000"] = resumes(options.port, reader.token, latest, max(10, options.samples // 10))
    # From 36^3 on, the word has four digits and is no other word's prefix (the last word is also a prefix).
    rare = "q" + base36(random.randrange(min(36**3, options.messages // 2), options.messages))
    searched = [
        ("rare_word", rare), ("two_common_words", "hello world"), ("three_letter_prefix", "ord"),
        # Chinese words inside sentences, common and less so, and a phrase of four characters.
        ("chinese_word", "预算"), ("chinese_rarer_word", "餐厅"), ("chinese_phrase", "讨论预算"),
        # A filter with a word: the account's 100 messages among a million.
        ("from_and_word", "from:poster budget"),
    ]
    for name, query in searched:
        result[f"search_{name}"] = searches(reader, query, max(20, options.samples // 4))

    watcher = API.session(options.port, "watcher")
    before = server.rss_kib()
    socket_, seconds = open_rooms(options.port, watcher, options.rooms)
    time.sleep(1)
    result["open_rooms_s"] = round(seconds, 2)
    result["open_room_bytes"] = round((server.rss_kib() - before) * 1024 / options.rooms)
    socket_.close()
    server.stop()
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
