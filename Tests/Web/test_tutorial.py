"""The tutorial side: a newcomer chatting with echo-bot, the echo page, and lobby senders from the TCP text
protocol."""

import socket
import time
import unittest

from selenium.webdriver.common.keys import Keys

from harness import TIMEOUT, unique_name
from webcase import WebClientTestCase, server
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)


class NewcomerTests(WebClientTestCase):
    def test_a_newcomer_registers_and_chats_with_the_demo_bot(self):
        """Issue 5's first-start path: register in the page, add echo-bot to Contacts, chat with it, get an answer."""
        browser = self.browser()
        self.register_in_ui(browser, unique_name("new"), "Newcomer")
        # A newcomer has no contacts yet (§6.4): Add contact finds echo-bot, then it is listed in Contacts
        browser.go("#/contacts")
        browser.click("#add-contact", "Add contact")
        browser.find("#people-search").send_keys("echo-bot", Keys.ENTER)
        browser.click('#people-results .contact-item[data-username="echo-bot"]', "echo-bot found")
        browser.click('#contact-list .contact-item[data-username="echo-bot"]', "echo-bot in Contacts")
        browser.wait_for(lambda d: browser.find_all(".chat-view #composer-input"), "the chat with echo-bot")
        self.type_and_send(browser, "I like you")
        self.wait_for_texts(browser, ["I like you", "you like I"], "echo-bot's answer")
        self.assert_no_alerts(browser)


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
        names = page.texts("#messages .message-sender")
        self.assertIn(name, names, "the sender's name from the message")


if __name__ == "__main__":
    unittest.main()
