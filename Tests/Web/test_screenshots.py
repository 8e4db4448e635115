"""Screenshots for docs/screenshots (or $SCREENSHOT_DIR): the chat list, a chat and a group in light and dark
on a phone and a desktop, the emoji picker, the message menu on a long press, selecting messages, Me and the new
group dialog on a desktop, and the offline banner; Administration (users, an account with its reset link,
invitations, the audit log), My data and the password reset page on a desktop and a phone, and the sign-in screen
after a deactivation; moderation (membership lines, a group's info with roles, Reports, and reporting a message on a
phone); mentions and notifications (the [Someone @ you] mark, Mentions of me and Me's notifications on a phone, a
mention marked with the @ suggestions open and a chat's notification level on a desktop); pinned chats and drafts in
the chat list, and a chat's pinned messages with its pinned bar."""

import json
import os
import time
import unittest
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from harness import REPO, api, png_bytes, register, unique_name
from webcase import WebClientTestCase, capture_socket, deliver_frame, long_press, server
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)


class ScreenshotTests(WebClientTestCase):
    """Not an assertion of looks: it saves what a person would see, for docs/screenshots and for review."""

    def test_screenshots(self):
        out = os.environ.get("SCREENSHOT_DIR", os.path.join(REPO, "docs", "screenshots"))
        ann = register(self.base(), unique_name("ann"), "Ann Lee")
        bob = register(self.base(), unique_name("bob"), "Bob Chen")
        chloe = register(self.base(), unique_name("chloe"), "Chloé Martin")
        dm = api(self.base(), "POST", "/dms", {"username": bob["user"]["username"]}, token=ann["token"])["id"]
        team = self.channel(chloe, "Design team", [ann["user"]["username"], bob["user"]["username"]])["id"]
        trip = api(self.base(), "POST", "/rooms", {"kind": "group", "name": "Weekend trip",
                                                   "members": [ann["user"]["username"], chloe["user"]["username"]]},
                   token=bob["token"])["id"]

        ann_socket, bob_socket, chloe_socket = self.socket(ann), self.socket(bob), self.socket(chloe)
        chloe_socket.send_message(team, "The new icons are in the shared folder.")
        bob_socket.send_message(team, "Looks great! I'll review them after lunch.")
        bob_socket.send_message(trip, "Train tickets are booked 🚆")
        chloe_socket.send_message(trip, "Here is the cabin: https://example.com/cabin")
        ann_socket.send_message(trip, "Perfect, I'll bring the board games 🎲")
        bob_socket.send_message(trip, "Who has the packing list?")
        ann_socket.send_message(dm, "Hi Bob! Are we still on for dinner tonight?")
        ann_socket.request({"type": "delete", "room": dm, "target": ann_socket.send_message(dm, "Oops, wrong chat")})
        time_seq = bob_socket.send_message(dm, "Yes! 7 pm at the usual place?")
        ann_socket.request({"type": "react", "room": dm, "target": time_seq, "emoji": "👍"})
        attachment = api(self.base(), "POST", "/attachments?name=view.png", raw=png_bytes(320, 200, (120, 170, 230)),
                         content_type="image/png", token=bob["token"])
        view_seq = bob_socket.send_message(dm, "", attachments=[attachment["id"]])
        bob_socket.send_message(dm, "Here's the view from the terrace 😊")
        booked_seq = ann_socket.send_message(dm, "Perfect. I'll book a table for three.")
        bob_socket.send_message(dm, "Great, see you there!", replyTo=booked_seq)
        chloe_socket.send_message(team, "Standup moved to **10:30** tomorrow:\n- demo first\n- then `v2` planning")
        self.mark_read(ann, dm)
        self.mark_read(ann, "lobby")

        def chat_ready():
            messages = self.messages(browser)
            return len(messages) >= 3 and all(all(m["images"]) for m in messages)

        def settle():
            browser.js("document.activeElement?.blur(); const s = document.getElementById('messages');"
                       "if (s) s.scrollTop = s.scrollHeight;")
            time.sleep(0.3)

        browser = self.signed_in(ann)
        browser.wait_for(lambda d: not browser.find("#connection-banner").is_displayed(), "connected")
        for dark in (False, True):
            scheme = "dark" if dark else "light"
            browser.set_dark(dark)
            for device, (width, height, mobile) in {"phone": (390, 844, True), "desktop": (1280, 800, False)}.items():
                browser.set_viewport(width, height, mobile)
                browser.go("#/chats")
                browser.wait_for(lambda d: len(browser.find_all(".chat-item")) >= 4, "the chat list")
                browser.js("document.activeElement?.blur()")
                browser.screenshot(os.path.join(out, f"{device}-{scheme}-chats.png"))
                self.open_chat(browser, dm)
                browser.wait_for(lambda d: chat_ready() and len(self.messages(browser)) >= 5, "the open chat")
                settle()
                browser.screenshot(os.path.join(out, f"{device}-{scheme}-chat.png"))
                self.open_chat(browser, trip)
                browser.wait_for(lambda d: chat_ready(), "the group")
                settle()
                browser.screenshot(os.path.join(out, f"{device}-{scheme}-group.png"))

        # The emoji picker on a phone, and the offline banner with a message waiting, on a desktop.
        browser.set_dark(False)
        browser.set_viewport(390, 844, True)
        self.open_chat(browser, dm)
        browser.wait_for(lambda d: chat_ready(), "the chat")
        settle()
        browser.find("#composer-emoji").click()
        browser.wait_for(lambda d: browser.find("#emoji-picker").is_displayed(), "the emoji picker")
        browser.screenshot(os.path.join(out, "phone-light-emoji.png"))
        ActionChains(browser.driver).send_keys(Keys.ESCAPE).perform()
        long_press(browser, self.message_node(browser, time_seq).find_element(By.CSS_SELECTOR, ".bubble"))
        browser.wait_for(lambda d: browser.find("#message-menu").is_displayed(), "the message menu")
        browser.js("document.activeElement?.blur()")
        browser.screenshot(os.path.join(out, "phone-light-menu.png"))
        browser.set_dark(True)
        time.sleep(0.3)
        browser.screenshot(os.path.join(out, "phone-dark-menu.png"))
        browser.find('#message-menu [data-action="select"]').click()
        self.message_node(browser, booked_seq).click()
        browser.wait_for(lambda d: browser.find("#selection-count").text == "2 selected", "two messages selected")
        browser.screenshot(os.path.join(out, "phone-dark-select.png"))
        browser.find("#selection-cancel").click()
        browser.set_dark(False)
        browser.set_viewport(1280, 800, False)
        browser.go("#/me")
        browser.wait_for(lambda d: browser.find_all(".me-view"), "Me")
        browser.js("document.activeElement?.blur()")
        browser.screenshot(os.path.join(out, "desktop-light-me.png"))
        browser.go("#/chats")
        browser.click("#new-chat-button", "⊕")
        browser.click('#new-chat-menu [data-mode="group"]', "New group")
        browser.wait_for(lambda d: len(browser.find_all("#people-results .contact-item")) >= 2, "the people to pick")
        browser.find("#new-group-name").send_keys("Dinner club")
        for person in (bob, chloe):
            browser.click(f'#people-results [data-username="{person["user"]["username"]}"] input', "a person to add")
        browser.screenshot(os.path.join(out, "desktop-light-new-group.png"))
        browser.find("#people-picker .dialog-close").click()
        # Forwarding (§7.6): Bob's picture of the terrace to the trip group: the picker, then the copy in the group.
        self.open_chat(browser, dm)
        browser.wait_for(lambda d: chat_ready(), "the chat")
        self.choose_menu_item(browser, view_seq, "forward")
        browser.wait_for(lambda d: browser.find("#forward-picker").is_displayed(), "the forward picker")
        browser.click(f'#forward-chats [data-room-id="{trip}"] input', "a chat to forward to")
        browser.wait_for(lambda d: browser.find("#forward-chosen").text == "1 chosen", "the group ticked")
        browser.screenshot(os.path.join(out, "desktop-light-forward.png"))
        browser.find("#forward-send").click()
        self.open_chat(browser, trip)
        browser.wait_for(lambda d: browser.find_all("#messages .forwarded-mark") and chat_ready(), "the forwarded picture")
        settle()
        browser.screenshot(os.path.join(out, "desktop-light-forwarded.png"))
        browser.set_dark(True)
        settle()
        browser.screenshot(os.path.join(out, "desktop-dark-forwarded.png"))
        self.open_chat(browser, team)
        browser.wait_for(lambda d: chat_ready(), "the channel")
        server.stop()
        try:
            browser.wait_for(lambda d: browser.find("#connection-banner").is_displayed(), "the offline banner")
            self.type_and_send(browser, "On my way, see you at 10:30!")
            browser.wait_for(lambda d: browser.find_all("#messages .message.pending"), "the waiting message")
            browser.wait_for(lambda d: "Next try" in browser.find("#connection-banner").text, "the next retry time")
            settle()
            browser.screenshot(os.path.join(out, "desktop-dark-offline.png"))
        finally:
            server.start()
        self.wait_for_texts(browser, ["The new icons are in the shared folder.", "Looks great! I'll review them after lunch.",
                                      "Standup moved to 10:30 tomorrow:demo firstthen v2 planning", "On my way, see you at 10:30!"],
                            "sent when back")
        self.assert_no_alerts(browser)

    def test_administration_screenshots(self):
        out = os.environ.get("SCREENSHOT_DIR", os.path.join(REPO, "docs", "screenshots"))
        tag = unique_name("_")  # in every username below, so a search shows these people only
        root, ada, alan, barbara = [register(self.base(), f"{first}{tag}", name) for first, name in (
            ("grace", "Grace Hopper"), ("ada", "Ada Lovelace"), ("alan", "Alan Turing"), ("barbara", "Barbara Liskov"))]
        server.admin("grant", root["user"]["username"])
        api(self.base(), "POST", f"/admin/users/{alan['user']['id']}/deactivate", token=root["token"])
        for options in ({"maxUses": 10, "expiresInHours": 72}, {}):
            api(self.base(), "POST", "/invites", options, token=root["token"])
        reset = api(self.base(), "POST", f"/admin/users/{ada['user']['id']}/password-reset", token=root["token"])
        browser = self.signed_in(root)

        def shoot(name, fragment, shown):
            browser.go(fragment)
            browser.wait_for(lambda d: browser.find_all(shown) and browser.find(shown).is_displayed(), name)
            browser.js("document.activeElement?.blur()")
            time.sleep(0.3)
            browser.screenshot(os.path.join(out, f"{name}.png"))

        for device, (width, height, mobile) in {"desktop": (1280, 800, False), "phone": (390, 844, True)}.items():
            browser.set_viewport(width, height, mobile)
            shoot(f"{device}-light-admin", "#/me/admin", "#registration-mode[data-mode]")
            browser.go("#/me/admin/users")
            browser.wait_for(lambda d: browser.find_all("#admin-user-search"), "the user search")
            browser.find("#admin-user-search").send_keys(tag)
            browser.wait_for(lambda d: len(browser.find_all("#admin-users li")) == 4, "the four of them")
            shoot(f"{device}-light-admin-users", "#/me/admin/users", "#admin-users li")
            browser.go(f"#/me/admin/users/{ada['user']['id']}")
            browser.click("#user-reset-link", "a reset link")
            shoot(f"{device}-light-admin-user", f"#/me/admin/users/{ada['user']['id']}", "#reset-link-url")
            browser.set_dark(True)
            shoot(f"{device}-dark-admin-invites", "#/me/admin/invites", "#admin-invites li")
            browser.set_dark(False)
            shoot(f"{device}-light-admin-audit", "#/me/admin/audit", "#admin-audit li")
            shoot(f"{device}-light-my-data", "#/me/data", "#blocked-list li")

        guest = self.browser()
        for device, (width, height, mobile) in {"desktop": (1280, 800, False), "phone": (390, 844, True)}.items():
            guest.set_viewport(width, height, mobile)
            guest.driver.get(f"{self.base()}/#/reset/{reset['code']}")
            guest.driver.refresh()  # the second time the address is the same: a fresh page, with empty fields
            guest.wait_for(lambda d: guest.find_all("#reset-form"), "the reset page")
            guest.find("#reset-password").send_keys("short")
            guest.find("#reset-confirm").send_keys("short")
            guest.find("#reset-submit").click()
            guest.wait_for(lambda d: guest.find("#reset-error").text, "the refusal")
            guest.js("document.activeElement?.blur()")
            guest.screenshot(os.path.join(out, f"{device}-light-reset.png"))

        # Barbara's phone, signed out when an administrator deactivates her account.
        signed_out = self.phone(barbara)
        api(self.base(), "POST", f"/admin/users/{barbara['user']['id']}/deactivate", token=root["token"])
        signed_out.wait_for(lambda d: signed_out.find_all("#auth-notice"), "the sign-in screen saying why")
        signed_out.js("document.activeElement?.blur()")
        signed_out.screenshot(os.path.join(out, "phone-light-deactivated.png"))
        self.assert_no_alerts(browser, guest, signed_out)

    def test_moderation_screenshots(self):
        out = os.environ.get("SCREENSHOT_DIR", os.path.join(REPO, "docs", "screenshots"))
        tag = unique_name("_")
        ann, bob, carol, dan, eve = [register(self.base(), f"{first}{tag}", name) for first, name in (
            ("ann", "Ann Lee"), ("bob", "Bob Chen"), ("carol", "Carol Wu"), ("dan", "Dan Park"), ("eve", "Eve Moss"))]
        room_id = api(self.base(), "POST", "/rooms", {"kind": "group", "name": "Trip to Kyoto",
                                                      "members": [bob["user"]["username"]]}, token=ann["token"])["id"]
        as_ann = lambda method, path, body=None: api(self.base(), method, f"/rooms/{room_id}{path}", body, token=ann["token"])
        for person in (carol, dan, eve):
            as_ann("POST", "/invite", {"username": person["user"]["username"]})
        writer = self.socket(ann)
        writer.send_message(room_id, "Welcome, everyone! Flights are booked for the 12th.")
        as_ann("PUT", f"/members/{bob['user']['id']}/role", {"role": "moderator"})
        as_ann("PUT", f"/mutes/{eve['user']['id']}")
        spam = self.socket(dan).send_message(room_id, "Cheap watches!!! Visit my shop")
        api(self.base(), "POST", f"/rooms/{room_id}/messages/{spam}/report", {"reason": "Spam"}, token=carol["token"])
        api(self.base(), "DELETE", f"/rooms/{room_id}/members/{dan['user']['id']}", token=bob["token"])
        writer.send_message(room_id, "Thanks Bob.")
        api(self.base(), "POST", f"/rooms/{room_id}/leave", token=carol["token"])
        server.admin("grant", ann["user"]["username"])
        ann = api(self.base(), "POST", "/login", {"username": ann["user"]["username"], "password": "correct horse battery"})
        browser = self.signed_in(ann)
        for device, (width, height, mobile) in {"desktop": (1280, 800, False), "phone": (390, 844, True)}.items():
            browser.set_viewport(width, height, mobile)
            browser.go(f"#/chat/{room_id}")
            browser.wait_for(lambda d: len(browser.find_all("#messages .member-line")) == 6, "the membership lines")
            browser.js("document.activeElement?.blur()")
            time.sleep(0.3)
            browser.screenshot(os.path.join(out, f"{device}-light-member-lines.png"))
            if mobile:
                browser.js("document.querySelector(arguments[0]).click()", f'#messages .message[data-seq="{spam}"] .message-actions-button')
                browser.click('#message-menu [data-action="report"]', "Report")
                browser.wait_for(lambda d: browser.find("#report-dialog").is_displayed(), "the report dialog")
                browser.find("#report-reason").send_keys("Selling watches in every chat")
                browser.js("document.activeElement?.blur()")
                time.sleep(0.3)
                browser.screenshot(os.path.join(out, f"{device}-light-report.png"))
                browser.find("#report-cancel").click()
            browser.click("#room-info-button", "the chat info")
            browser.wait_for(lambda d: browser.find_all("#room-info-members .tag-muted"), "the members with their tags")
            browser.js("document.activeElement?.blur()")
            time.sleep(0.3)
            browser.screenshot(os.path.join(out, f"{device}-light-room-info-roles.png"))
            browser.js("document.getElementById('room-info').close()")
            browser.go("#/me/admin/reports")
            browser.wait_for(lambda d: browser.find_all("#admin-reports .report-row"), "the reports")
            browser.js("document.activeElement?.blur()")
            time.sleep(0.3)
            browser.screenshot(os.path.join(out, f"{device}-light-admin-reports.png"))
        self.assert_no_alerts(browser)

    def test_mention_and_notification_screenshots(self):
        out = os.environ.get("SCREENSHOT_DIR", os.path.join(REPO, "docs", "screenshots"))
        tag = unique_name("_")
        ann, bob, carol = [register(self.base(), f"{first}{tag}", name) for first, name in (
            ("ann", "Ann Lee"), ("bob", "Bob Chen"), ("carol", "Carol Wu"))]
        ann_name, bob_name = ann["user"]["username"], bob["user"]["username"]
        room_id = api(self.base(), "POST", "/rooms", {"kind": "group", "name": "Book club",
                                                      "members": [ann_name, carol["user"]["username"]]}, token=bob["token"])["id"]
        quiet = self.channel(carol, "Announcements", [ann_name])["id"]
        bob_socket, carol_socket = self.socket(bob), self.socket(carol)
        carol_socket.send_message(quiet, "The office is closed on Friday.")
        bob_socket.send_message(room_id, "Next month's book: The Left Hand of Darkness 📚")
        carol_socket.send_message(room_id, f"Great pick! @{bob_name} can you bring the spare copies?")
        bob_socket.send_message(room_id, f"Sure. @{ann_name} could you host this time?")
        browser = self.phone(ann)

        def shoot(name):
            browser.js("document.activeElement?.blur()")
            time.sleep(0.3)
            browser.screenshot(os.path.join(out, f"{name}.png"))

        browser.wait_for(lambda d: browser.find_all(f'.chat-item[data-room-id="{room_id}"] .mention-mark'), "the mention mark")
        shoot("phone-light-mention-mark")
        browser.go("#/me/mentions")
        browser.wait_for(lambda d: browser.find_all("#mentions-list .mention-result"), "Mentions of me")
        shoot("phone-light-mentions")
        browser.go("#/me")
        browser.wait_for(lambda d: browser.find("#notification-settings").is_displayed(), "the notification settings")
        browser.js("document.getElementById('notification-settings').scrollIntoView({block: 'center'})")
        shoot("phone-light-me-notifications")

        browser.set_viewport(1280, 800, False)
        self.open_chat(browser, room_id)
        browser.wait_for(lambda d: browser.find_all("#messages .bubble.mentions-me .mention-me")
                         and browser.find_all("#messages .mention:not(.mention-me)"), "the mentions marked")
        box = browser.find("#composer-input")
        box.send_keys("Happy to! ")
        box.send_keys("@")
        browser.wait_for(lambda d: browser.find("#mention-suggestions").is_displayed(), "the @ suggestions")
        time.sleep(0.3)
        browser.screenshot(os.path.join(out, "desktop-light-mention.png"))
        box.send_keys(Keys.ESCAPE)
        browser.click("#room-info-button", "the chat info")
        browser.wait_for(lambda d: browser.find("#room-info").is_displayed(), "the chat info")
        browser.find("label[for=notify-level-mentions]").click()
        browser.wait_for(lambda d: browser.find("#notify-level-mentions").is_selected(), "Only when I am mentioned")
        shoot("desktop-light-notification-level")
        self.assert_no_alerts(browser)

    def test_integration_screenshots(self):
        """Issue 33: badges and a link preview card in a group, its Integrations, and Me → Bots with a token shown once,
        on a desktop and on a phone in Chinese. The card is handed to the page as the server's `preview` event would
        come (a server that makes previews is not needed to see it)."""
        out = os.environ.get("SCREENSHOT_DIR", os.path.join(REPO, "docs", "screenshots"))
        ann = register(self.base(), unique_name("ann"), "Ann Lee")
        bob = register(self.base(), unique_name("bob"), "Bob Chen")
        bot_name = unique_name("ci")
        bot = api(self.base(), "POST", "/bots", {"username": bot_name, "displayName": "CI"}, token=ann["token"])
        ops = api(self.base(), "POST", "/rooms", {"kind": "group", "name": "Ops",
                                                  "members": [bob["user"]["username"], bot_name]}, token=ann["token"])["id"]
        hook = api(self.base(), "POST", f"/rooms/{ops}/webhooks", {"name": "Grafana"}, token=ann["token"])
        api(self.base(), "POST", f"/rooms/{ops}/messages", {"text": "Build 42 passed ✅ deploying to staging",
                                                            "clientMsgID": "build-42"}, token=bot["token"])
        hook_request = urllib.request.Request(hook["url"], data=json.dumps({"text": "CPU at 93% on web-1"}).encode(),
                                              headers={"Content-Type": "application/json"}, method="POST")
        urllib.request.urlopen(hook_request, timeout=10).close()
        link_seq = self.socket(bob).send_message(ops, "Trip notes: https://example.org/kyoto")
        image = api(self.base(), "POST", "/attachments?name=kyoto.png", raw=png_bytes(120, 120, (230, 120, 60)),
                    content_type="image/png", token=ann["token"])
        preview = {"type": "message", "kind": "preview", "room": ops, "seq": link_seq + 1, "id": "preview", "date": 0,
                   "sender": {"id": bob["user"]["id"], "name": bob["user"]["username"]}, "target": link_seq,
                   "preview": {"url": "https://example.org/kyoto", "title": "Autumn in Kyoto: temples, maples and tofu",
                               "siteName": "Example Travel", "image": image,
                               "description": "A week in Kyoto in November: where to see the maples, which temples "
                                              "open at night, and the best tofu in town."}}
        self.mark_read(ann, ops)

        browser = self.browser()
        capture_socket(browser)
        browser.sign_in_with(ann)
        for device, (width, height, mobile), language in (("desktop", (1280, 800, False), "en"),
                                                           ("phone", (390, 844, True), "zh-CN")):
            browser.set_viewport(width, height, mobile)
            browser.go("#/me")
            browser.wait_for(lambda d: browser.find_all("#language"), "Me")
            browser.js("const s = document.getElementById('language'); s.value = arguments[0]; s.dispatchEvent(new Event('change'));", language)
            self.open_chat(browser, ops)
            browser.wait_for(lambda d: len(browser.find_all("#messages .sender-badge")) >= 2, "the Bot and Webhook badges")
            deliver_frame(browser, preview)
            browser.wait_for(lambda d: browser.js("const i = document.querySelector('.link-preview img');"
                                                  "return Boolean(i && i.complete && i.naturalWidth > 0)"), "the preview card")
            browser.js("document.activeElement?.blur(); const s = document.getElementById('messages'); s.scrollTop = s.scrollHeight;")
            time.sleep(0.3)
            browser.screenshot(os.path.join(out, f"{device}-light-badges-preview.png"))

            browser.find("#room-info-button").click()
            browser.wait_for(lambda d: browser.find_all("#room-webhooks .webhook-row"), "the chat's Integrations")
            browser.find("#webhook-name").send_keys("GitLab")
            browser.find("#create-webhook").click()
            browser.wait_for(lambda d: browser.find_all("#new-webhook-url"), "the new webhook's URL")
            browser.js("document.getElementById('room-integrations').scrollIntoView({block: 'end'}); document.activeElement?.blur();")
            browser.screenshot(os.path.join(out, f"{device}-light-integrations.png"))
            browser.find("#room-info .dialog-close").click()

            browser.go("#/me/bots")
            browser.wait_for(lambda d: browser.find_all(f'#bot-list .bot-row[data-username="{bot_name}"]'), "Me → Bots")
            browser.find("#bot-username").send_keys(unique_name("alerts"))
            browser.find("#create-bot").click()
            browser.wait_for(lambda d: browser.find_all("#new-bot-token"), "the new bot's token")
            browser.click(f'#bot-list .bot-row[data-username="{bot_name}"] .show-deliveries', "the bot's deliveries")
            browser.js("document.activeElement?.blur()")
            time.sleep(0.3)
            browser.screenshot(os.path.join(out, f"{device}-light-bots.png"))
        self.assert_no_alerts(browser)

    def test_pinned_chats_and_drafts_screenshots(self):
        """Issue 34: the chat list with a pinned chat (grey, first) and a draft ([Draft] in red), desktop and phone in
        Chinese, light and dark."""
        out = os.environ.get("SCREENSHOT_DIR", os.path.join(REPO, "docs", "screenshots"))
        ann = register(self.base(), unique_name("ann"), "Ann Lee")
        bob = register(self.base(), unique_name("bob"), "Bob Chen")
        family = api(self.base(), "POST", "/rooms", {"kind": "group", "name": "Family", "members": [bob["user"]["username"]]},
                     token=ann["token"])["id"]
        dm = api(self.base(), "POST", "/dms", {"username": bob["user"]["username"]}, token=ann["token"])["id"]
        bob_socket = self.socket(bob)
        bob_socket.send_message(family, "Dinner at mum's on Sunday?")
        bob_socket.send_message(dm, "Did you see the match?")
        api(self.base(), "PUT", f"/rooms/{family}/pin", token=ann["token"])
        api(self.base(), "PUT", f"/rooms/{dm}/draft", {"text": "Yes! What a finish"}, token=ann["token"])
        browser = self.signed_in(ann)
        for device, (width, height, mobile), language in (("desktop", (1280, 800, False), "en"),
                                                           ("phone", (390, 844, True), "zh-CN")):
            browser.set_viewport(width, height, mobile)
            browser.go("#/me")
            browser.wait_for(lambda d: browser.find_all("#language"), "Me")
            browser.js("const s = document.getElementById('language'); s.value = arguments[0]; s.dispatchEvent(new Event('change'));", language)
            browser.go("#/chats")
            browser.wait_for(lambda d: browser.find_all(".chat-item.pinned") and browser.find_all(".chat-item .draft-mark"),
                             "a pinned chat and a draft")
            browser.js("document.activeElement?.blur()")
            shoot_light_and_dark(browser, out, f"{device}-{{scheme}}-pinned-draft.png")
        self.assert_no_alerts(browser)

    def test_pinned_messages_screenshots(self):
        """A group with two pinned messages: the pinned bar under the header and the lines of the pins, on a phone and
        a desktop, light and dark."""
        out = os.environ.get("SCREENSHOT_DIR", os.path.join(REPO, "docs", "screenshots"))
        ann = register(self.base(), unique_name("ann"), "Ann Lee")
        bob = register(self.base(), unique_name("bob"), "Bob Chen")
        chloe = register(self.base(), unique_name("chloe"), "Chloé Martin")
        trip = api(self.base(), "POST", "/rooms", {"kind": "group", "name": "Weekend trip",
                                                   "members": [bob["user"]["username"], chloe["user"]["username"]]},
                   token=ann["token"])["id"]
        ann_socket, bob_socket, chloe_socket = self.socket(ann), self.socket(bob), self.socket(chloe)
        train = bob_socket.send_message(trip, "Train leaves at 8:15 from platform 4 🚆")
        chloe_socket.send_message(trip, "Great, I'll bring snacks for the ride")
        cabin = chloe_socket.send_message(trip, "Cabin address: 12 Lakeside Road, the key is under the blue pot")
        ann_socket.send_message(trip, "Thanks! Pinning both so nobody has to scroll for them")
        api(self.base(), "PUT", f"/rooms/{trip}/messages/{train}/pin", token=bob["token"])
        api(self.base(), "PUT", f"/rooms/{trip}/messages/{cabin}/pin", token=ann["token"])
        bob_socket.send_message(trip, "Perfect 👍")
        self.mark_read(ann, trip)
        browser = self.signed_in(ann)
        for device, (width, height, mobile) in {"phone": (390, 844, True), "desktop": (1280, 800, False)}.items():
            browser.set_viewport(width, height, mobile)
            self.open_chat(browser, trip)
            browser.wait_for(lambda d: browser.find("#pinned-bar").is_displayed()
                             and len(browser.find_all("#messages .pin-line")) == 2, "the pinned bar and the lines")
            browser.js("document.activeElement?.blur(); const s = document.getElementById('messages'); s.scrollTop = s.scrollHeight;")
            shoot_light_and_dark(browser, out, f"{device}-{{scheme}}-pinned-messages.png")
        self.assert_no_alerts(browser)


def shoot_light_and_dark(browser, out, name):
    """Screenshots the page as it is, in the light scheme and then the dark one, into `out` as `name` with its
    `{scheme}` filled in; the page is light again afterwards."""
    for scheme in ("light", "dark"):
        browser.set_dark(scheme == "dark")
        time.sleep(0.3)  # the page repaints in the other scheme
        browser.screenshot(os.path.join(out, name.format(scheme=scheme)))
    browser.set_dark(False)


if __name__ == "__main__":
    unittest.main()
