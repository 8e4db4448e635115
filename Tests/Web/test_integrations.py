"""Bots and incoming webhooks in the web client (issue 33; PROTOCOL.md §9.13, §9.14): Me → Bots makes a bot whose
token is shown once and works, and manages it; a chat's Integrations make a webhook whose URL posts into the chat;
their messages carry a Bot or Webhook badge; a member who is not a moderator sees no Integrations."""

import http.server
import json
import threading
import unittest
import urllib.error
import urllib.request

from harness import ApiError, api, unique_name
from webcase import WebClientTestCase
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)

# Answers every confirm() with yes and remembers what it asked.
CONFIRM_YES_JS = "window.confirm = (message) => { window.__asked = message; return true; }; window.__asked = null;"


def post_hook(url, body):
    """POSTs Slack's JSON to an incoming webhook's URL: (status, the plain-text answer)."""
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


class BotsTests(WebClientTestCase):
    """Me → Bots: making, a token shown once that works, a new token, a webhook URL, deliveries and deleting."""

    def test_gh33_bot_made_in_me_bots_shows_its_token_once_and_posts_with_a_bot_badge(self):
        # setup
        ann = self.user("ann", "Ann Lee")
        page = self.signed_in(ann)
        bot_name = unique_name("cibot")

        # act: make the bot in Me → Bots
        page.go("#/me")
        page.find("#me-bots-link").click()
        page.wait_for(lambda d: "No bots yet." in page.find("#bot-list-status").text, "the empty list of bots")
        page.find("#bot-username").send_keys(bot_name)
        page.find("#bot-display-name").send_keys("CI")
        page.find("#create-bot").click()
        page.wait_for(lambda d: page.find_all("#new-bot-token"), "the new bot's token")

        # validate: the token is shown with Copy (focused) and a warning, and works for sending over HTTP
        token = page.find("#new-bot-token").get_attribute("value")
        self.assertEqual(len(token), 43, "a token of 256 bits in base64url")
        self.assertIn("won’t see it again", page.find("#new-bot-token-warning").text)
        self.assertEqual(page.js("return document.activeElement.id"), "new-bot-token-copy")
        page.wait_for(lambda d: page.find_all(f'#bot-list .bot-row[data-username="{bot_name}"]'), "the bot in the list")
        group = api(self.base(), "POST", "/rooms", {"kind": "group", "name": "Deploys", "members": [bot_name]}, token=ann["token"])
        api(self.base(), "POST", f"/rooms/{group['id']}/messages", {"text": "deploy 1.4.2 done", "clientMsgID": "d-1"}, token=token)
        self.open_chat(page, group["id"])
        self.wait_for_texts(page, ["deploy 1.4.2 done"], "the bot's message")
        seq = self.seq_of(page, "deploy 1.4.2 done")
        message = f'#messages .message[data-seq="{seq}"]'
        page.wait_for(lambda d: page.find_all(f"{message} .sender-badge"), "a Bot badge once the bot's profile is known")
        self.assertEqual(page.find(f"{message} .sender-name").text, "CI")
        self.assertEqual(page.find(f"{message} .sender-badge").text, "Bot")

        # a direct chat with the bot says Bot beside its name (its messages there show no sender name)
        direct = api(self.base(), "POST", "/dms", {"username": bot_name}, token=ann["token"])["id"]
        self.open_chat(page, direct)
        page.wait_for(lambda d: page.find("#chat-bot-badge").is_displayed(), "the Bot badge in the header")
        self.assertEqual(page.find("#chat-bot-badge").text, "Bot")
        self.open_chat(page, group["id"])
        self.assertFalse(page.find("#chat-bot-badge").is_displayed(), "no badge on a group")

        # act: back in Me → Bots, the token is not shown again; a new token replaces the old one
        page.go("#/me/bots")
        row = f'#bot-list .bot-row[data-username="{bot_name}"]'
        page.wait_for(lambda d: page.find_all(row), "the bot's row")
        self.assertEqual(page.find_all("#new-bot-token"), [], "the token is shown once only")
        page.js(CONFIRM_YES_JS)
        page.click(f"{row} .new-token", "the bot's New token")
        page.wait_for(lambda d: page.find_all(f"#bot-token-{bot_name}"), "the new token")
        new_token = page.find(f"#bot-token-{bot_name}").get_attribute("value")
        self.assertNotEqual(new_token, token)
        self.assertIn(bot_name, page.js("return window.__asked"))
        with self.assertRaises(ApiError) as refused:
            api(self.base(), "GET", "/me", token=token)
        self.assertEqual(refused.exception.status, 401, "the old token stopped working")
        self.assertEqual(api(self.base(), "GET", "/me", token=new_token)["username"], bot_name)

        # a webhook URL the server may not reach is refused in words; deliveries are listed (none yet)
        page.find(f"#bot-webhook-{bot_name}").send_keys("http://10.1.2.3/hook")
        page.click(f"{row} .save-webhook", "the bot's Save webhook")
        page.wait_for(lambda d: "https on a public address" in page.find(f"{row} .bot-status").text, "invalid_endpoint in words")
        self.assertEqual(page.find_all(f"#bot-secret-{bot_name}"), [], "no signing key for a refused URL")
        page.click(f"{row} .show-deliveries", "the bot's Deliveries")
        page.wait_for(lambda d: page.find(f"#bot-deliveries-{bot_name}").text == "Nothing delivered yet.", "no deliveries")
        self.assertEqual(page.find(f"{row} .show-deliveries").get_attribute("aria-expanded"), "true")

        # the same username again is taken, in words
        page.find("#bot-username").send_keys(bot_name)
        page.find("#create-bot").click()
        page.wait_for(lambda d: page.find("#bot-form-status").text == "That username is taken.", "username_taken in words")

        # act: delete the bot, once asked
        page.click(f"{row} .delete-bot", "the bot's Delete")
        page.wait_for(lambda d: "deleted" in page.find("#bot-list-status").text, "the bot deleted")
        self.assertEqual(page.find_all(row), [])
        self.assertEqual(api(self.base(), "GET", "/bots", token=ann["token"])["bots"], [])
        self.assert_no_alerts(page)


    def test_gh33_a_bot_signed_in_on_the_web_is_told_it_cannot_make_bots(self):
        # setup: the web client signed in with a bot's token (a program may use it as its own client)
        ann = self.user("ann")
        bot = api(self.base(), "POST", "/bots", {"username": unique_name("webbot")}, token=ann["token"])
        profile = api(self.base(), "GET", "/me", token=bot["token"])
        page = self.signed_in({"token": bot["token"], "user": profile})

        # act
        page.go("#/me/bots")
        page.wait_for(lambda d: page.find_all("#bot-username"), "Me → Bots")
        page.find("#bot-username").send_keys(unique_name("child"))
        page.find("#create-bot").click()

        # validate: not_allowed in words of its own, not the rename refusal's
        page.wait_for(lambda d: page.find("#bot-form-status").text == "A bot cannot make or manage bots.", "not_allowed in words")
        self.assertEqual(page.find_all("#new-bot-token"), [])


    def test_gh33_a_webhook_url_set_in_me_bots_gets_its_signing_key_once_and_lists_its_deliveries(self):
        # setup: a receiver that answers every delivery, and a server that may post to it (plain http on loopback)
        class Receiver(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                body = b"pong"
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *arguments):
                pass
        receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=receiver.serve_forever, daemon=True).start()
        self.addCleanup(receiver.server_close)
        self.addCleanup(receiver.shutdown)
        own = self.own_server(["--outbound-allow", "127.0.0.0/8"])
        ann = self.user("ann", base_url=own.base_url)
        bot_name = unique_name("pingbot")
        api(own.base_url, "POST", "/bots", {"username": bot_name}, token=ann["token"])
        page = self.browser(own.base_url)
        page.sign_in_with(ann)
        page.go("#/me/bots")
        row = f'#bot-list .bot-row[data-username="{bot_name}"]'
        page.wait_for(lambda d: page.find_all(row), "the bot's row")

        # act: set the URL
        page.find(f"#bot-webhook-{bot_name}").send_keys(f"http://127.0.0.1:{receiver.server_port}/hook")
        page.click(f"{row} .save-webhook", "the bot's Save webhook")

        # validate: the signing key, once; a mention is delivered and answered, and the deliveries say so
        page.wait_for(lambda d: page.find_all(f"#bot-secret-{bot_name}"), "the signing key")
        self.assertEqual(page.find(f"{row} .bot-status").text, "Webhook URL saved.")
        self.assertEqual(len(page.find(f"#bot-secret-{bot_name}").get_attribute("value")), 43)
        group = api(own.base_url, "POST", "/rooms", {"kind": "group", "name": "Ping", "members": [bot_name]}, token=ann["token"])["id"]
        api(own.base_url, "POST", f"/rooms/{group}/messages", {"text": f"@{bot_name} ping", "clientMsgID": "ping-1"}, token=ann["token"])
        self.open_chat(page, group)
        self.wait_for_texts(page, [f"@{bot_name} ping", "pong"], "the bot's reply")
        page.go("#/me/bots")
        page.wait_for(lambda d: page.find_all(row), "the bot's row again")
        self.assertEqual(page.find_all(f"#bot-secret-{bot_name}"), [], "the signing key is shown once only")
        page.click(f"{row} .show-deliveries", "the bot's Deliveries")
        page.wait_for(lambda d: page.find_all(f"#bot-deliveries-{bot_name} .delivery-row"), "the delivery")
        self.assertEqual(page.find(f"#bot-deliveries-{bot_name} .delivery-outcome").text, "Replied")
        self.assertTrue(page.find(f"#bot-deliveries-{bot_name} .delivery-where").text.startswith("Ping · #1 · "))

        # act: remove the URL
        page.click(f"{row} .remove-webhook", "the bot's Remove webhook")
        page.wait_for(lambda d: page.find(f"{row} .bot-status").text == "Webhook URL removed.", "the URL removed")


class IncomingWebhookTests(WebClientTestCase):
    """A chat's Integrations: for its owner and moderators only; a webhook made there posts with a Webhook badge."""

    def test_gh33_webhook_made_in_integrations_posts_with_a_badge_and_members_see_no_integrations(self):
        # setup: Ann owns a group with Bob (a member) and a bot
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        bot_name = unique_name("alertbot")
        api(self.base(), "POST", "/bots", {"username": bot_name, "displayName": "Alerts bot"}, token=ann["token"])
        group = api(self.base(), "POST", "/rooms", {"kind": "group", "name": "Ops",
                                                    "members": [bob["user"]["username"], bot_name]}, token=ann["token"])
        page = self.signed_in(ann)
        self.open_chat(page, group["id"])

        # act: make a webhook in the chat's info
        page.find("#room-info-button").click()
        page.wait_for(lambda d: page.find("#room-integrations").is_displayed(), "Integrations in the owner's chat info")
        page.wait_for(lambda d: page.find_all(f'#room-bots .room-bot-row[data-username="{bot_name}"]'), "the chat's bot")
        self.assertEqual(page.find("#room-webhooks").text, "No webhooks yet.")
        page.find("#webhook-name").send_keys("Grafana")
        page.find("#create-webhook").click()
        page.wait_for(lambda d: page.find_all("#new-webhook-url"), "the new webhook's URL")
        url = page.find("#new-webhook-url").get_attribute("value")
        self.assertIn("/hooks/", url)
        self.assertEqual(page.js("return document.activeElement.id"), "new-webhook-url-copy")
        page.wait_for(lambda d: "Grafana" in page.find("#room-webhooks").text, "the webhook in the list")
        page.find("#room-info .dialog-close").click()

        # validate: what is posted to the URL shows under the webhook's name with a Webhook badge
        self.assertEqual(post_hook(url, {"text": "CPU at 93% on web-1"}), (200, "ok"))
        self.wait_for_texts(page, ["CPU at 93% on web-1"], "the webhook's message")
        seq = self.seq_of(page, "CPU at 93% on web-1")
        message = f'#messages .message[data-seq="{seq}"]'
        self.assertEqual(page.find(f"{message} .sender-name").text, "Grafana")
        self.assertEqual(page.find(f"{message} .sender-badge").text, "Webhook")

        # a plain member sees no Integrations
        bob_page = self.signed_in(bob)
        self.open_chat(bob_page, group["id"])
        bob_page.find("#room-info-button").click()
        bob_page.wait_for(lambda d: bob_page.find_all("#room-info-members .member-row"), "the members in Bob's chat info")
        self.assertEqual(bob_page.find_all("#room-integrations"), [], "no Integrations for a member")
        self.assertEqual(bob_page.find(f'#room-info-members .member-row[data-username="{bot_name}"] .tag-bot').text, "Bot")

        # act: delete the webhook, once asked; its URL stops working
        page.find("#room-info-button").click()
        page.wait_for(lambda d: page.find_all("#room-webhooks .webhook-row"), "the webhook listed again")
        page.js(CONFIRM_YES_JS)
        page.find("#room-webhooks .delete-webhook").click()
        page.wait_for(lambda d: page.find("#room-webhooks").text == "No webhooks yet.", "the webhook deleted")
        self.assertIn("Grafana", page.js("return window.__asked"))
        self.assertEqual(post_hook(url, {"text": "too late"}), (404, "no_service"))
        self.assert_no_alerts(page, bob_page)


if __name__ == "__main__":
    unittest.main()
