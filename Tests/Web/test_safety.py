"""Safety: markup in messages and names is shown as text, and the Content-Security-Policy forbids inline
scripts."""

import unittest
import urllib.request

from harness import TIMEOUT
from webcase import WebClientTestCase
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)


def fetch_headers(url):
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
        return response.headers


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


if __name__ == "__main__":
    unittest.main()
