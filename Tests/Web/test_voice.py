"""Voice messages (issue 34, PROTOCOL §9.3): recorded on a desktop by click, wait, click, and received as a voice
bubble of a plausible length that plays and loses its unheard dot; on a phone, hold to talk sends and sliding up
cancels; a refused microphone is said plainly; axe finds nothing in the recorder or a voice bubble. A screenshot of
a voice message in light and dark."""

import os

from selenium.webdriver.common.keys import Keys

import harness
from harness import REPO, api, axe_violations
from webcase import WebClientTestCase
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)

# Chromium's fake microphone (a beeping tone) without a permission prompt, and sound that plays without a gesture
# of the page's own (the test clicks, but the first play of a page must not depend on Chromium's autoplay heuristics).
MICROPHONE_FLAGS = ("--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
                    "--autoplay-policy=no-user-gesture-required")


class MicrophoneBrowser(harness.Browser):
    """The harness's browser in a Chromium started with MICROPHONE_FLAGS."""

    CHROMIUM_FLAGS = MICROPHONE_FLAGS


class NoPromptBrowser(MicrophoneBrowser):
    """A fake microphone whose permission the test decides (no fake prompt answering yes)."""

    CHROMIUM_FLAGS = ("--use-fake-device-for-media-stream",)


VOICE_JS = """
return [...document.querySelectorAll('#messages .message .voice-message')].map((voice) => ({
  mine: voice.closest('.message').classList.contains('mine'),
  durationMs: Number(voice.dataset.durationMs), length: voice.querySelector('.voice-length').textContent,
  unheard: Boolean(voice.querySelector('.voice-unheard')), width: voice.getBoundingClientRect().width,
  currentTime: voice.querySelector('audio').currentTime, ended: voice.querySelector('audio').ended,
  playing: voice.classList.contains('playing')}));
"""

TOUCH_JS = "const box = arguments[0].getBoundingClientRect(); return [box.left + box.width / 2, box.top + box.height / 2];"


class VoiceTests(WebClientTestCase):
    def microphone_page(self, session, phone=False, dark=False):
        page = MicrophoneBrowser(self.base(), width=390 if phone else 1280, height=844 if phone else 800, dark=dark)
        self.addCleanup(page.quit)
        page.sign_in_with(session)
        if phone:
            page.set_viewport(390, 844, mobile=True)
        return page

    def voices(self, page):
        return page.js(VOICE_JS)

    def voice_history(self, session, room_id):
        page = api(self.base(), "GET", f"/rooms/{room_id}/messages?limit=50", token=session["token"])
        return [message for message in page["messages"] if message.get("kind") == "message"]

    def wait_for_time(self, page, shown, what):
        page.wait_for(lambda d: page.find("#voice-recorder-time").text == shown, what)

    def touch(self, page, kind, x, y):
        points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        page.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def test_gh34_a_voice_message_recorded_on_a_desktop_plays_for_the_other_person(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        room_id = self.direct_room(ann, bob)
        page = self.microphone_page(ann)
        self.open_chat(page, room_id)
        page.find("#voice-button").click()
        page.wait_for(lambda d: page.find("#voice-recorder").is_displayed(), "the recorder")
        self.assertEqual(page.find("#voice-button").get_attribute("aria-label"), "Send voice message")
        self.assertIn("Escape to cancel", page.find("#voice-recorder-hint").text)
        self.assertEqual(axe_violations(page, "the recorder"), [])
        self.wait_for_time(page, "0:02", "two seconds recorded")
        page.find("#voice-button").click()
        page.wait_for(lambda d: not page.find("#voice-recorder").is_displayed(), "the recorder closed")
        page.wait_for(lambda d: [v for v in self.voices(page) if v["mine"]], "my voice message in the chat")
        sent = self.voice_history(ann, room_id)
        self.assertEqual(len(sent), 1)
        attachment = sent[0]["attachments"][0]
        self.assertTrue(attachment["contentType"].startswith("audio/"), attachment)
        self.assertEqual(sent[0]["text"], "")
        self.assertTrue(1000 <= attachment["durationMs"] <= 4000, attachment)

        other = self.microphone_page(bob)
        self.open_chat(other, room_id)
        voice = other.wait_for(lambda d: self.voices(other), "Ann's voice message for Bob")[0]
        self.assertFalse(voice["mine"])
        self.assertEqual(voice["durationMs"], attachment["durationMs"])
        self.assertIn(voice["length"], ("0:01", "0:02", "0:03", "0:04"))
        self.assertTrue(voice["unheard"], "a red dot until Bob plays it")
        self.assertEqual(axe_violations(other, "a voice bubble"), [])
        other.find("#messages .voice-play").click()
        other.wait_for(lambda d: (lambda v: v["currentTime"] > 0 or v["ended"])(self.voices(other)[0]), "the recording playing")
        self.assertFalse(self.voices(other)[0]["unheard"], "the dot is gone once played")
        other.driver.refresh()
        other.wait_for(lambda d: self.voices(other), "the voice message after a reload")
        self.assertFalse(self.voices(other)[0]["unheard"], "heard is remembered in this browser")
        page.wait_for(lambda d: page.find("#chat-list").text.count("[Voice] 0:0") == 1, "the chat list says [Voice]")

    def test_gh34_escape_cancels_a_desktop_recording(self):
        ann, bob = self.user("ann"), self.user("bob")
        room_id = self.direct_room(ann, bob)
        page = self.microphone_page(ann)
        self.open_chat(page, room_id)
        page.find("#voice-button").click()
        self.wait_for_time(page, "0:01", "recording")
        page.find("#composer-input").send_keys(Keys.ESCAPE)
        page.wait_for(lambda d: not page.find("#voice-recorder").is_displayed(), "the recorder closed")
        self.type_and_send(page, "after cancelling")
        self.wait_for_texts(page, ["after cancelling"], "only the text was sent")
        self.assertEqual([m["text"] for m in self.voice_history(ann, room_id)], ["after cancelling"])

    def test_gh34_hold_to_talk_on_a_phone_sends_and_sliding_up_cancels(self):
        ann, bob = self.user("ann"), self.user("bob")
        room_id = self.direct_room(ann, bob)
        page = self.microphone_page(ann, phone=True)
        page.js("localStorage.setItem('swiftchat.language', 'zh-CN')")
        page.driver.refresh()
        page.wait_for(lambda d: page.find_all("#chat-list"), "the chat list")
        self.open_chat(page, room_id)
        x, y = page.js(TOUCH_JS, page.find("#voice-button"))

        self.touch(page, "touchStart", x, y)
        page.wait_for(lambda d: page.find("#voice-recorder.holding").is_displayed(), "the hold-to-talk panel")
        self.assertEqual(page.find("#voice-recorder-hint").text, "松开 发送\n上滑 取消")
        self.assertEqual(axe_violations(page, "the hold-to-talk panel"), [])
        self.wait_for_time(page, "0:01", "held for over a second")
        self.touch(page, "touchEnd", x, y)
        page.wait_for(lambda d: self.voices(page), "the voice message sent on release")
        page.wait_for(lambda d: self.voice_history(ann, room_id), "the voice message on the server")
        held = self.voice_history(ann, room_id)[0]["attachments"][0]
        self.assertTrue(1000 <= held["durationMs"] <= 4000, held)

        self.touch(page, "touchStart", x, y)
        self.wait_for_time(page, "0:01", "recording again")
        self.touch(page, "touchMove", x, y - 120)
        page.wait_for(lambda d: page.find("#voice-recorder-hint").text == "松开手指，取消发送", "slid up: release to cancel")
        self.touch(page, "touchEnd", x, y - 120)
        page.wait_for(lambda d: not page.find("#voice-recorder").is_displayed(), "the panel closed")
        self.type_and_send(page, "取消之后")
        page.wait_for(lambda d: len(self.voice_history(ann, room_id)) == 2, "the text after")
        history = self.voice_history(ann, room_id)
        self.assertEqual([m["text"] for m in history], ["", "取消之后"], "the slid-away recording was not sent")

    def test_gh34_a_refused_microphone_is_said_plainly(self):
        ann, bob = self.user("ann"), self.user("bob")
        room_id = self.direct_room(ann, bob)
        page = NoPromptBrowser(self.base())
        self.addCleanup(page.quit)
        page.sign_in_with(ann)
        page.driver.execute_cdp_cmd("Browser.setPermission", {
            "origin": self.base(), "permission": {"name": "microphone"}, "setting": "denied"})
        self.open_chat(page, room_id)
        page.find("#voice-button").click()
        page.wait_for(lambda d: page.find("#voice-problem").text.startswith("Microphone access was refused."), "the refusal")
        self.assertFalse(page.find("#voice-recorder").is_displayed())

    def test_gh34_screenshots_of_a_voice_message(self):
        out = os.environ.get("SCREENSHOT_DIR", os.path.join(REPO, "docs", "screenshots"))
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        room_id = self.direct_room(ann, bob)
        self.socket(bob).send_message(room_id, "Can you tell me the address?")
        sender = self.microphone_page(ann)
        self.open_chat(sender, room_id)
        sender.find("#voice-button").click()
        self.wait_for_time(sender, "0:03", "three seconds recorded")
        sender.find("#voice-button").click()
        sender.wait_for(lambda d: self.voice_history(ann, room_id)[-1].get("attachments"), "the voice message sent")
        self.socket(bob).send_message(room_id, "Thanks, on my way!")
        sender.quit()
        for dark in (False, True):
            scheme = "dark" if dark else "light"
            page = self.microphone_page(bob, phone=True, dark=dark)
            self.open_chat(page, room_id)
            page.wait_for(lambda d: self.voices(page), "the voice message")
            page.screenshot(os.path.join(out, f"voice-message-phone-{scheme}.png"))
            x, y = page.js(TOUCH_JS, page.find("#voice-button"))
            self.touch(page, "touchStart", x, y)
            self.wait_for_time(page, "0:01", "holding to talk")
            page.screenshot(os.path.join(out, f"voice-hold-to-talk-phone-{scheme}.png"))
            self.touch(page, "touchMove", x, y - 120)
            self.touch(page, "touchEnd", x, y - 120)
            page.quit()
