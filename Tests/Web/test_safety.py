"""Safety: markup in messages and names is shown as text, the Markdown subset is built of elements and text only,
and the Content-Security-Policy forbids inline scripts."""

import unittest
import urllib.request

from harness import TIMEOUT, api
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

        # Issue 34: the Markdown subset, built of elements and text; nothing else becomes markup.
        markdown = "\n".join([
            "**bold <img src=x onerror=alert(3)>** and *italic* and `<b>code</b>` and 2*3*4",
            "> quoted [link](javascript:alert(4))",
            "- first",
            "- second",
            "1. one",
            "2. two",
            "```",
            "<script>alert(5)</script> **not bold**",
            "```",
        ])
        self.socket(attacker).send_message(room_id, markdown)
        rendered_js = """
        const text = [...document.querySelectorAll('#messages .message-text')].at(-1);
        const all = (selector) => [...text.querySelectorAll(selector)].map((node) => node.textContent);
        return {strong: all('strong'), em: all('em'), code: all('p code'), quote: all('blockquote'),
                bullets: all('ul > li'), numbers: all('ol > li'), block: all('pre > code'),
                elements: [...text.querySelectorAll('*')].map((node) => node.tagName.toLowerCase()).sort()};
        """
        browser.wait_for(lambda d: browser.js(rendered_js)["block"], "the Markdown message")
        self.assertEqual(browser.js(rendered_js), {
            "strong": ["bold <img src=x onerror=alert(3)>"], "em": ["italic"], "code": ["<b>code</b>"],
            "quote": ["quoted [link](javascript:alert(4))"], "bullets": ["first", "second"], "numbers": ["one", "two"],
            "block": ["<script>alert(5)</script> **not bold**"],
            "elements": sorted(["p", "strong", "em", "code", "blockquote", "ul", "li", "li", "ol", "li", "li", "pre", "code"])})
        self.assertTrue(browser.find(f'.chat-item[data-room-id="{room_id}"] .chat-item-preview').get_attribute("textContent").startswith(
            f"{evil_name}: bold <img src=x onerror=alert(3)> and italic and <b>code</b> and 2*3*4 quoted"), "the preview without the marks")

        # A channel makes nobody a contact (§6.4): the viewer adds the attacker to see the name in Contacts.
        api(self.base(), "POST", "/me/contacts", {"username": attacker_username}, token=viewer["token"])
        browser.go("#/contacts")
        browser.find("#contacts-filter").send_keys(attacker_username)
        browser.wait_for(lambda d: browser.texts(".contact-item .contact-name") == [evil_name],
                         "the display name as text in Contacts")
        self.assertEqual(browser.find_all('img[src="x"]'), [])
        self.assertEqual(browser.find_all("#app script, #app b, #app a[href^=javascript]"), [])
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
