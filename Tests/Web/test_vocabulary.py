"""The web client speaks the protocol's vocabulary: every frame type, error code and kind the page's modules name is
one the server has, as `Tests/Fixtures/protocol/vocabulary.json` lists them (written by the Swift tests from the
protocol's own enums, `VocabularyFixtureTests`). A code renamed on the server, or misspelt in the page, fails here
instead of being silently never matched. These read the page's sources; they need no browser."""

import json
import os
import re
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
JS = os.path.join(HERE, "..", "..", "Public", "js")
VOCABULARY = os.path.join(HERE, "..", "Fixtures", "protocol", "vocabulary.json")

# Error codes the page makes up itself, for failures no server answered (api.js): never on the wire.
CLIENT_ONLY_CODES = {"unreachable"}
# Keys of the error table that are not one code's message.
NOT_A_CODE = {"generic", "rate_limited_seconds"}


def source(name):
    with open(os.path.join(JS, name), encoding="utf-8") as file:
        return file.read()


def all_sources():
    texts = {}
    for folder, _, files in os.walk(JS):
        for name in files:
            if name.endswith(".js"):
                with open(os.path.join(folder, name), encoding="utf-8") as file:
                    texts[os.path.relpath(os.path.join(folder, name), JS)] = file.read()
    return texts


class VocabularyTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(VOCABULARY, encoding="utf-8") as file:
            cls.vocabulary = {key: set(values) for key, values in json.load(file).items()}

    def test_every_frame_the_page_handles_is_a_server_frame_and_every_server_frame_is_handled(self):
        client = source("client.js")
        handler = client[client.index("handleFrame(frame) {"):]
        handler = handler[:handler.index("\n  }\n")]
        handled = set(re.findall(r"case '([a-z]+)':", handler))
        socket = set(re.findall(r"frame\.type [!=]== '([a-z]+)'", source("socket.js")))
        self.assertTrue(handled, "no frame types found in client.js handleFrame")
        self.assertLessEqual(handled | socket, self.vocabulary["serverFrames"])
        # `history` answers a request the page does not make (it pages over HTTP).
        self.assertEqual(self.vocabulary["serverFrames"] - handled - socket, {"history"})

    def test_every_frame_the_page_sends_is_a_client_frame(self):
        sent = set()
        for name in ("client.js", "socket.js", "outbox.js", "pendingReads.js"):
            sent |= set(re.findall(r"\{ type: '([a-z]+)'", source(name)))
        self.assertTrue(sent, "no frames found")
        self.assertLessEqual(sent, self.vocabulary["clientFrames"])

    def test_every_error_code_the_page_compares_is_one_the_server_has(self):
        codes = set()
        for name, text in all_sources().items():
            codes |= set(re.findall(r"code [!=]== '([a-z_]+)'", text))
            for group in re.findall(r"\[((?:'[a-z_]+',? ?)+)\]\.includes\([a-z.]*code\)", text):
                codes |= set(re.findall(r"'([a-z_]+)'", group))
            for group in re.findall(r"new Set\(\[((?:'[a-z_]+',? ?)+)\]\)", text):
                codes |= set(re.findall(r"'([a-z_]+)'", group))
        codes.discard("string")  # `typeof data.code !== 'string'`
        self.assertIn("rate_limited", codes)
        self.assertLessEqual(codes - CLIENT_ONLY_CODES, self.vocabulary["errorCodes"])

    def test_every_error_message_of_the_page_is_for_a_code_the_server_has(self):
        for name in ("strings.js", "strings.zh-Hant.js"):
            keys = set(re.findall(r"^\s+error_([a-z_]+):", source(name), re.M))
            self.assertTrue(keys, f"no error messages in {name}")
            self.assertLessEqual(keys - NOT_A_CODE - CLIENT_ONLY_CODES, self.vocabulary["errorCodes"], name)

    def test_every_kind_the_page_names_is_one_the_server_has(self):
        kinds = set()
        switches = 0
        for name, text in all_sources().items():
            for owner, kind in re.findall(r"(?<![\w?\].])((?:\w+\.)*)kind === '([a-z]+)'", text):
                if owner.split(".")[-2:-1] in ([], ["event"], ["room"], ["message"], ["summary"], ["frame"]):
                    kinds.add(kind)
            # Switches on a protocol kind: an event's or a room's (`kind`, `event.kind`, `room.kind`…), not other
            # kinds of the page's own (markdown.js's `block.kind`).
            for body in switch_bodies(text, r"(?:(?:event|room|message|summary|frame)\.)?kind"):
                switches += 1
                kinds |= set(re.findall(r"case '([a-z]+)':", body))
        self.assertTrue(kinds)
        self.assertGreater(switches, 0, "no switch on a kind found")
        self.assertLessEqual(kinds, self.vocabulary["eventKinds"] | self.vocabulary["roomKinds"])


def switch_bodies(text, subject):
    """The bodies of the `switch (SUBJECT) { … }` statements in `text`, braces matched."""
    bodies = []
    for match in re.finditer(r"switch \((?:" + subject + r")\) \{", text):
        depth, end = 1, match.end()
        while depth and end < len(text):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            end += 1
        bodies.append(text[match.end():end - 1])
    return bodies


if __name__ == "__main__":
    unittest.main()
