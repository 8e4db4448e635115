"""Losing the connection: a server restart loses and duplicates nothing, the offline banner and Retry now, the
app opening from the service worker's cache, and small losses (dropped files, unsent work at sign-out)."""

import os
import re
import unittest

from harness import PASSWORD, REPO, TIMEOUT, api, unique_name
from webcase import WebClientTestCase, rgb, server
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)


GREEN_LIGHT = (7, 193, 96)  # --accent


GREY_LIGHT = (178, 178, 178)  # --light-off in the light scheme


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
            browser.wait_for(lambda d: browser.find(".topbar .status-light").get_attribute("data-state") != "online",
                             "the status light going grey")
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
            browser.wait_for(lambda d: browser.find(".topbar .status-light").get_attribute("data-state") == "online",
                             "the status light back on", timeout=TIMEOUT * 2)
            self.assertEqual(rgb(self.light_colour(browser)), GREEN_LIGHT, "the light is green again")
        self.wait_for_texts(sender, ["before 1", "before 2", "queued 1", "queued 2"], "queued messages delivered once")
        self.wait_for_texts(reader, ["before 1", "before 2", "queued 1", "queued 2"], "queued messages received once")

        # The outbox and the draft survive the page going away while the server is down.
        server.stop()
        sender.wait_for(lambda d: sender.find(".topbar .status-light").get_attribute("data-state") != "online",
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
        shell = {"/", "/manifest.webmanifest"}
        for folder in ("js", "css", "icons"):
            for directory, _, names in os.walk(os.path.join(REPO, "Public", folder)):
                for name in names:
                    shell.add("/" + os.path.relpath(os.path.join(directory, name), os.path.join(REPO, "Public")))
        self.assertEqual(listed, shell, "Public/sw.js's SHELL list")


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
        # A draft the server has is not lost by signing out (§7.5): this one cannot reach it.
        page.js("const send = window.fetch; window.fetch = (url, options) => "
                "String(url).endsWith('/draft') ? Promise.reject(new TypeError('offline')) : send(url, options);")
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


if __name__ == "__main__":
    unittest.main()
