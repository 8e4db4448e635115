"""Accessibility: axe on every screen, keyboard focus, tabs, the skip link, one tab stop for the messages,
polite announcements and text contrast."""

import json
import os
import tempfile
import time
import unittest
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from harness import api, axe_violations, png_bytes, unique_name
from webcase import WebClientTestCase, capture_socket, deliver_frame, long_press, seed, server
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)


class AccessibilityTests(WebClientTestCase):
    """Issue 15, defect 9: contrast, focus, one tab stop per list, skip link, tabs, polite announcements, axe.
    Issue 34, defect 10: axe finds nothing of any impact (was: colour contrast on my own reactions, `region` on
    every signed-in screen, `aria-allowed-role` on the tab bar)."""

    @staticmethod
    def tab_violations(page, scheme, prefix=""):
        """What axe finds on each signed-in tab (Chats, Contacts, Discover, Me), each named by `prefix`, tab and scheme."""
        violations = []
        for tab in ("chats", "contacts", "discover", "me"):
            page.go(f"#/{tab}")
            page.wait_for(lambda d: page.find(f"#tab-{tab}").get_attribute("aria-selected") == "true", f"the {tab} tab")
            time.sleep(0.3)
            violations += axe_violations(page, f"{prefix}{tab} {scheme}")
        return violations

    def test_gh15_gh34_no_axe_findings_of_any_impact_on_any_screen(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        room_id = self.direct_room(ann, bob)
        group = self.channel(bob, unique_name("Axe "), [ann["user"]["username"]])["id"]
        bob_socket = self.socket(bob)
        seq = bob_socket.send_message(room_id, "hello https://example.com there")
        bob_socket.request({"type": "react", "room": room_id, "target": seq, "emoji": "👍"})
        bob_socket.send_message(group, "group hello")
        violations = []
        page = self.browser()
        for dark in (False, True):
            page.set_dark(dark)
            scheme = "dark" if dark else "light"
            page.open("#/chats")
            page.wait_for(lambda d: page.find_all("#auth-form"), "the sign-in form")
            violations += axe_violations(page, f"sign-in {scheme}")
            page.find("#auth-switch").click()
            violations += axe_violations(page, f"register {scheme}")
        page.set_dark(False)
        page.sign_in_with(ann)
        for dark in (False, True):
            page.set_dark(dark)
            scheme = "dark" if dark else "light"
            violations += self.tab_violations(page, scheme)
            self.open_chat(page, room_id)
            if not dark:
                page.wait_for(lambda d: self.messages(page), "the messages")
                self.type_and_send(page, "my reply")
                self.react_from_menu(page, seq, "❤️")  # a reaction of mine has colours of its own
            self.wait_for_texts(page, ["hello https://example.com there", "my reply"], "the chat")
            violations += axe_violations(page, f"chat {scheme}")
            self.open_message_menu(page, seq)
            violations += axe_violations(page, f"message menu {scheme}")
            page.find("#more-reactions").click()
            page.wait_for(lambda d: page.find("#emoji-picker").is_displayed(), "the emoji picker")
            violations += axe_violations(page, f"emoji picker {scheme}")
            ActionChains(page.driver).send_keys(Keys.ESCAPE).perform()
            self.choose_menu_item(page, seq, "select")
            page.wait_for(lambda d: page.find("#selection-bar").is_displayed(), "selecting messages")
            violations += axe_violations(page, f"selecting messages {scheme}")
            page.find("#selection-cancel").click()
            ActionChains(page.driver).key_down(Keys.CONTROL).send_keys("k").key_up(Keys.CONTROL).perform()
            page.wait_for(lambda d: page.find("#quick-switcher").is_displayed(), "the quick switcher")
            violations += axe_violations(page, f"quick switcher {scheme}")
            ActionChains(page.driver).send_keys(Keys.ESCAPE).perform()
            page.find("#new-chat-button").click()
            page.wait_for(lambda d: page.find("#new-chat-menu").is_displayed(), "the ⊕ menu")
            violations += axe_violations(page, f"new chat menu {scheme}")
            page.find('#new-chat-menu [data-mode="group"]').click()
            page.wait_for(lambda d: page.find_all("#people-results .contact-item"), "the new group dialog")
            violations += axe_violations(page, f"new group {scheme}")
            page.find("#people-picker .dialog-close").click()
            self.open_chat(page, group)
            page.find("#room-info-button").click()
            page.wait_for(lambda d: page.find("#room-info").is_displayed(), "the chat info")
            violations += axe_violations(page, f"chat info {scheme}")
            page.find("#room-info .dialog-close").click()
        server.stop()
        try:
            page.wait_for(lambda d: page.find("#connection-banner").is_displayed(), "the offline banner")
            violations += axe_violations(page, "offline banner dark")
            page.set_dark(False)
            violations += axe_violations(page, "offline banner light")
        finally:
            server.start()
        self.assertEqual(violations, [], "\n".join(violations))

    def test_gh34_no_axe_findings_on_a_phone_in_chinese_search_unread_and_replies(self):
        """Issue 34, defect 10 on a phone in Chinese, and the screens the desktop run does not reach: the Unread
        messages divider, the jump to it, a Markdown code block, a recalled line, replying, both searches (their
        date filters had no label, and a highlighted word in a snippet was grey on dark yellow), a hit opened in
        place, the menu on a long press, the image viewer (outside every landmark), New chat and Add contact."""
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        room_id = self.direct_room(ann, bob)
        word = unique_name("axe")
        seqs = seed(bob, room_id, 30, prefix=f"{word} line")
        bob_socket = self.socket(bob)
        bob_socket.send_message(room_id, "```\n" + "long code line " * 20 + "\n```\n**bold** and `code`\n> quoted")
        recalled = bob_socket.send_message(room_id, "to recall")
        bob_socket.request({"type": "delete", "room": room_id, "target": recalled})
        reader = self.socket(ann)
        reader.send({"type": "read", "room": room_id, "seq": seqs[9]})
        reader.receive_until(lambda frame: frame.get("type") == "receipt" and frame.get("seq") == seqs[9])
        image_path = os.path.join(tempfile.mkdtemp(), "green.png")
        with open(image_path, "wb") as file:
            file.write(png_bytes())
        page = self.browser(width=390, height=844)
        page.open("#/chats")
        page.js("localStorage.setItem('swiftchat.language', 'zh-CN')")
        page.sign_in_with(ann)
        page.set_viewport(390, 844, mobile=True)
        self.assertTrue(page.find("#tab-chats").text.startswith("聊天"), "the page in Chinese")
        violations = []
        for dark in (False, True):
            page.set_dark(dark)
            scheme = "dark" if dark else "light"
            violations += self.tab_violations(page, scheme, prefix="phone ")
            self.open_chat(page, room_id)
            if not dark:  # the first visit reads what it shows
                page.wait_for(lambda d: page.find_all("#unread-divider"), "the Unread messages divider")
            violations += axe_violations(page, f"phone chat {scheme}")
            page.js("const s = document.getElementById('messages'); s.scrollTop = s.scrollHeight;")
            time.sleep(0.5)
            violations += axe_violations(page, f"phone chat at the end {scheme}")
            long_press(page, self.message_node(page, seqs[-1]))
            page.wait_for(lambda d: page.find("#message-menu").is_displayed(), "the message menu on a long press")
            violations += axe_violations(page, f"phone message menu {scheme}")
            ActionChains(page.driver).send_keys(Keys.ESCAPE).perform()
            if not dark:
                page.find(".chat-view input[type=file]").send_keys(image_path)
            page.click("#messages .image-button", "the image")
            page.wait_for(lambda d: page.js("return document.getElementById('image-viewer').open"), "the image viewer")
            violations += axe_violations(page, f"phone image viewer {scheme}")
            page.find("#image-viewer .viewer-close").click()
            self.choose_menu_item(page, seqs[-1], "reply")
            page.wait_for(lambda d: page.find_all(".composer-context-title"), "replying")
            violations += axe_violations(page, f"phone replying {scheme}")
            page.click("#history-search-button", "Search chat history")
            page.find("#history-search-input").send_keys(word)
            page.wait_for(lambda d: page.find_all("#history-search .search-result"), "the history search results")
            violations += axe_violations(page, f"phone chat history search {scheme}")
            page.go("#/chats")
            page.wait_for(lambda d: page.find_all("#chat-search"), "the chat list")
            box = page.find("#chat-search")
            box.clear()
            box.send_keys(word)
            page.click("#search-messages", "the message search")
            page.wait_for(lambda d: page.find_all("#search-results .search-result"), "the results")
            violations += axe_violations(page, f"phone message search {scheme}")
            page.find_all("#search-results .search-result")[-1].click()
            page.wait_for(lambda d: page.find_all("#messages .message.highlighted"), "a hit opened in place")
            violations += axe_violations(page, f"phone hit in place {scheme}")
            page.go("#/chats")
            for mode in ("chat", "contact"):
                page.wait_for(lambda d: page.find("#new-chat-button").is_displayed(), "⊕")
                page.find("#new-chat-button").click()
                page.find(f'#new-chat-menu [data-mode="{mode}"]').click()
                page.wait_for(lambda d: page.find("#people-picker").is_displayed(), f"the {mode} dialog")
                violations += axe_violations(page, f"phone {mode} dialog {scheme}")
                page.find("#people-picker .dialog-close").click()
        self.assertEqual(violations, [], "\n".join(violations))

    def test_gh31_no_axe_findings_on_mentions_and_notification_settings(self):
        """Issue 31: the [Someone @ you] mark, a bubble that mentions me, the @ suggestions, Mentions of me and the
        notification settings (Me, a chat's level)."""
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        group = api(self.base(), "POST", "/rooms", {"kind": "group", "name": unique_name("Axe "),
                                                    "members": [ann["user"]["username"]]}, token=bob["token"])["id"]
        self.socket(bob).send_message(group, f"@{ann['user']['username']} and @{bob['user']['username']}: tea?")
        violations = []
        page = self.signed_in(ann)
        page.wait_for(lambda d: page.find_all(f'.chat-item[data-room-id="{group}"] .mention-mark'), "the mention mark")
        for dark in (False, True):
            page.set_dark(dark)
            scheme = "dark" if dark else "light"
            page.go("#/chats")
            page.wait_for(lambda d: page.find_all(f'.chat-item[data-room-id="{group}"]'), "the chat list")
            violations += axe_violations(page, f"mention mark {scheme}")
            self.open_chat(page, group)
            page.wait_for(lambda d: page.find_all("#messages .bubble.mentions-me .mention-me"), "the mention in the bubble")
            page.find("#composer-input").send_keys("@")
            page.wait_for(lambda d: page.find("#mention-suggestions").is_displayed(), "the @ suggestions")
            violations += axe_violations(page, f"mention in a bubble and @ suggestions {scheme}")
            page.find("#composer-input").send_keys(Keys.ESCAPE, Keys.BACKSPACE)
            page.find("#room-info-button").click()
            page.wait_for(lambda d: page.find("#room-info").is_displayed(), "the chat info")
            violations += axe_violations(page, f"chat info with its notification level {scheme}")
            page.find("#room-info .dialog-close").click()
            page.go("#/me/mentions")
            page.wait_for(lambda d: page.find_all("#mentions-list .mention-result"), "Mentions of me")
            violations += axe_violations(page, f"mentions of me {scheme}")
            page.go("#/me")
            page.wait_for(lambda d: page.find("#notification-settings").is_displayed(), "the notification settings")
            violations += axe_violations(page, f"me with notifications {scheme}")
        self.assertEqual(violations, [], "\n".join(violations))

    def test_gh30_no_axe_findings_on_administration_my_data_and_the_links_pages(self):
        """Issue 30: Administration (its lists, an account's page with a reset link), My data, a direct chat's info
        with Unblock, the reset page, registering with an invitation and the sign-in screen after a deactivation."""
        root, bob = self.admin("root", "Root Admin"), self.user("bob", "Bob Chen")
        room_id = self.direct_room(root, bob)
        invite = api(self.base(), "POST", "/invites", {"maxUses": 5, "expiresInHours": 24}, token=root["token"])
        reset = api(self.base(), "POST", f"/admin/users/{bob['user']['id']}/password-reset", token=root["token"])
        violations = []
        page = self.signed_in(root)
        pages = {"#/me": "#me-admin-link", "#/me/admin": "#registration-mode[data-mode]", "#/me/admin/users": "#admin-users li",
                 "#/me/admin/invites": "#admin-invites li", "#/me/admin/rooms": "#admin-rooms li",
                 "#/me/admin/audit": "#admin-audit li", "#/me/data": "#blocked-list .admin-row"}
        for dark in (False, True):
            page.set_dark(dark)
            scheme = "dark" if dark else "light"
            self.open_chat(page, room_id)
            page.find("#room-info-button").click()
            if not dark:
                page.click("#block-user", "Block")
            page.wait_for(lambda d: page.find_all("#unblock-user"), "Unblock")
            violations += axe_violations(page, f"direct chat info {scheme}")
            page.find("#room-info .dialog-close").click()
            for fragment, shown in pages.items():
                page.go(fragment)
                page.wait_for(lambda d: page.find_all(shown) and page.find(shown).is_displayed(), fragment)
                violations += axe_violations(page, f"{fragment} {scheme}")
            page.go(f"#/me/admin/users/{bob['user']['id']}")
            page.click("#user-reset-link", "a reset link")
            page.wait_for(lambda d: page.find_all("#reset-link-url"), "the reset link")
            violations += axe_violations(page, f"an account's page {scheme}")
        guest = self.browser()
        for dark in (False, True):
            guest.set_dark(dark)
            scheme = "dark" if dark else "light"
            guest.driver.get(reset["url"].replace(reset["url"].split("/#")[0], self.base()))
            guest.wait_for(lambda d: guest.find_all("#reset-form"), "the reset page")
            violations += axe_violations(guest, f"reset page {scheme}")
            guest.driver.get(f"{self.base()}/#/invite/{invite['code']}")
            guest.wait_for(lambda d: guest.find_all("#auth-invite"), "registering with an invitation")
            violations += axe_violations(guest, f"invitation {scheme}")
        signed_out = self.signed_in(bob)
        # Connected first: a page whose socket opens after the deactivation is refused with 401, not closed with 4003.
        signed_out.wait_for(
            lambda d: signed_out.find(".topbar .status-light").get_attribute("data-state") == "online", "Bob connected")
        api(self.base(), "POST", f"/admin/users/{bob['user']['id']}/deactivate", token=root["token"])
        signed_out.wait_for(lambda d: signed_out.find_all("#auth-notice"), "signed out by the deactivation")
        violations += axe_violations(signed_out, "signed out with the reason")
        self.assertEqual(violations, [], "\n".join(violations))

    def test_gh33_no_axe_findings_on_bots_integrations_badges_and_a_preview_card(self):
        """Issue 33: Me → Bots with a token shown once and deliveries open, a chat's Integrations with a webhook's URL
        shown once, and a chat with Bot and Webhook badges and a link preview card (handed to the page as the
        server's `preview` event would come), light and dark; the card is reached with the keyboard and Enter opens it."""
        ann = self.user("ann", "Ann Lee")
        bot_name = unique_name("ci")
        bot = api(self.base(), "POST", "/bots", {"username": bot_name, "displayName": "CI"}, token=ann["token"])
        group = api(self.base(), "POST", "/rooms", {"kind": "group", "name": unique_name("Axe "), "members": [bot_name]},
                    token=ann["token"])["id"]
        hook = api(self.base(), "POST", f"/rooms/{group}/webhooks", {"name": "Grafana"}, token=ann["token"])
        request = urllib.request.Request(hook["url"], data=json.dumps({"text": "disk 91%"}).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        urllib.request.urlopen(request, timeout=10).close()
        seq = api(self.base(), "POST", f"/rooms/{group}/messages", {"text": "notes: https://example.org/kyoto", "clientMsgID": "axe-1"},
                  token=bot["token"])["seq"]
        preview = {"type": "message", "kind": "preview", "room": group, "seq": seq + 1, "id": "preview", "date": 0,
                   "sender": {"id": bot["id"], "name": bot_name}, "target": seq,
                   "preview": {"url": "https://example.org/kyoto", "title": "Autumn in Kyoto", "siteName": "Example Travel",
                               "description": "Temples, maples and tofu."}}
        violations = []
        page = self.browser()
        capture_socket(page)
        page.sign_in_with(ann)
        self.open_chat(page, group)
        deliver_frame(page, preview)
        page.wait_for(lambda d: page.find_all("#messages .link-preview") and len(page.find_all("#messages .sender-badge")) == 2,
                      "the badges and the preview card")
        # The message is the list's one tab stop; → goes through its controls: the link in its text, then the card.
        page.js(f"document.querySelector('#messages .message[data-seq=\"{seq}\"]').focus()")
        ActionChains(page.driver).send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT).perform()
        self.assertEqual(page.js("return document.activeElement.className"), "link-preview", "the card reached with →")
        ActionChains(page.driver).send_keys(Keys.ENTER).perform()
        page.wait_for(lambda d: len(page.driver.window_handles) == 2, "the page opened in a new tab by Enter")
        for dark in (False, True):
            page.set_dark(dark)
            scheme = "dark" if dark else "light"
            self.open_chat(page, group)
            page.wait_for(lambda d: page.find_all("#messages .link-preview"), "the preview card")
            violations += axe_violations(page, f"badges and a preview card {scheme}")
            page.find("#room-info-button").click()
            page.wait_for(lambda d: page.find_all("#room-webhooks .webhook-row"), "the chat's Integrations")
            page.find("#webhook-name").send_keys(f"Hook {scheme}")
            page.find("#create-webhook").click()
            page.wait_for(lambda d: page.find_all("#new-webhook-url"), "the new webhook's URL")
            violations += axe_violations(page, f"chat info with Integrations {scheme}")
            page.find("#room-info .dialog-close").click()
            page.go("#/me/bots")
            page.wait_for(lambda d: page.find_all(f'#bot-list .bot-row[data-username="{bot_name}"]'), "Me → Bots")
            page.find("#bot-username").send_keys(unique_name("axe"))
            page.find("#create-bot").click()
            page.wait_for(lambda d: page.find_all("#new-bot-token"), "the new bot's token")
            page.click(f'#bot-list .bot-row[data-username="{bot_name}"] .show-deliveries', "the bot's deliveries")
            page.wait_for(lambda d: "Nothing delivered yet." in page.find(f"#bot-deliveries-{bot_name}").text, "the deliveries")
            violations += axe_violations(page, f"me bots {scheme}")
        self.assertEqual(violations, [], "\n".join(violations))

    def test_gh30_keyboard_through_me_administration_and_back(self):
        """Issue 30: Me's pages open with Enter, the focus moves into the new page, and Back returns."""
        root = self.admin("root")
        page = self.signed_in(root)
        page.go("#/me")
        page.wait_for(lambda d: page.find("#me-admin-link").is_displayed(), "Administration under Me")
        page.js("document.getElementById('me-admin-link').focus()")
        ActionChains(page.driver).send_keys(Keys.ENTER).perform()
        page.wait_for(lambda d: page.find("#topbar-title").text == "Administration", "Administration by Enter")
        self.assertEqual(page.js("return document.activeElement.id"), "tab-panel", "the focus is in the new page")
        ActionChains(page.driver).send_keys(Keys.TAB).perform()
        self.assertEqual(page.js("return document.activeElement.id"), "admin-users-link")
        ActionChains(page.driver).send_keys(Keys.ENTER).perform()
        # Any account listed: the first page (50, A–Z) holds root only while the shared server has few accounts before it.
        page.wait_for(lambda d: page.find_all("#admin-users a[data-username]"), "Users by Enter")
        ActionChains(page.driver).send_keys(Keys.TAB).perform()
        self.assertEqual(page.js("return document.activeElement.id"), "admin-user-search")
        ActionChains(page.driver).send_keys(Keys.TAB).perform()
        ActionChains(page.driver).send_keys(Keys.ENTER).perform()
        page.wait_for(lambda d: page.find_all("#user-active-toggle"), "an account's page by Enter")
        page.find("#topbar-back").send_keys(Keys.ENTER)
        page.wait_for(lambda d: page.find("#topbar-title").text == "Users", "Back to Users")

    def test_gh15_keyboard_focus_sign_in_tabs_skip_link_and_one_stop_for_the_messages(self):
        bob = self.user("bob")
        page = self.browser()
        username = unique_name("key")
        self.register_in_ui(page, username, "Key Board")
        page.wait_for(lambda d: page.js("return document.activeElement.closest('#chat-list') !== null"),
                      "the focus on the chat list after signing in")

        page.find("#tab-chats").click()
        page.find("#tab-chats").send_keys(Keys.ARROW_RIGHT)
        page.wait_for(lambda d: page.js("return location.hash") == "#/contacts", "→ shows the next tab")
        self.assertEqual(page.js("return document.activeElement.id"), "tab-contacts")
        self.assertEqual(page.js("return [...document.querySelectorAll('[role=tab]')].map((t) => t.tabIndex)"), [-1, 0, -1, -1])
        page.find("#tab-contacts").send_keys(Keys.ARROW_LEFT)
        page.wait_for(lambda d: page.js("return location.hash") == "#/chats", "← shows the previous tab")

        session = json.loads(page.js("return localStorage.getItem('swiftchat.session')"))
        room_id = self.direct_room(session, bob)
        bob_socket = self.socket(bob)
        for number in range(1, 6):
            bob_socket.send_message(room_id, f"key {number}")
        self.open_chat(page, room_id)
        self.wait_for_texts(page, [f"key {n}" for n in range(1, 6)], "the messages")
        self.wait_for_badge(page, room_id, None, "read")
        stops = page.js("return [...document.querySelectorAll('#messages button, #messages a[href], #messages [tabindex]')]"
                        ".filter((e) => e.tabIndex >= 0).length")
        self.assertEqual(stops, 1, "one tab stop for the whole message list")
        page.js("document.querySelector('#messages .message[tabindex=\"0\"]').focus()")
        self.assertEqual(page.js("return document.activeElement.querySelector('.message-text').textContent"), "key 5")
        ActionChains(page.driver).send_keys(Keys.ARROW_UP).perform()
        self.assertEqual(page.js("return document.activeElement.querySelector('.message-text').textContent"), "key 4")
        ActionChains(page.driver).send_keys(Keys.ENTER).perform()
        page.wait_for(lambda d: page.find("#message-menu").is_displayed(), "the menu on Enter")
        ActionChains(page.driver).send_keys(Keys.ESCAPE).perform()

        page.js("document.getElementById('skip-link').focus()")
        self.assertTrue(page.find("#skip-link").is_displayed(), "the skip link shows when focused")
        ActionChains(page.driver).send_keys(Keys.ENTER).perform()
        self.assertEqual(page.js("return document.activeElement.id"), "composer-input")

        # New messages are announced politely; the list itself is no live region (older pages stay quiet).
        self.assertIsNone(page.find("#messages").get_attribute("aria-live"))
        self.assertNotEqual(page.find("#messages").get_attribute("role"), "log")
        self.assertEqual(page.find("#message-announcer").get_attribute("aria-live"), "polite")
        self.assertEqual(page.find("#message-announcer").get_attribute("textContent"), "")
        bob_socket.send_message(room_id, "announce me")
        page.wait_for(lambda d: "announce me" in page.find("#message-announcer").get_attribute("textContent"), "the announcement")

    def test_gh15_text_colours_reach_4_5_to_1(self):
        contrast_js = """
        const parse = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
        const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
          .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
        const probe = document.createElement('span'); document.body.append(probe);
        const colour = (name) => { probe.style.color = `var(${name})`; return parse(getComputedStyle(probe).color); };
        const ratio = (a, b) => { const [x, y] = [lum(colour(a)), lum(colour(b))].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
        const pairs = [['--muted', '--surface'], ['--muted', '--bg'], ['--muted', '--panel'], ['--accent-text', '--panel'],
          ['--accent-text', '--surface'], ['--on-accent', '--button-bg'], ['--bubble-mine-meta', '--bubble-mine'],
          ['--muted', '--bubble-theirs'], ['--danger', '--surface'], ['--link', '--bg'], ['--banner-text', '--banner-bg'],
          ['--bubble-theirs-text', '--mention-bubble'], ['--muted', '--mention-bubble'], ['--link', '--mention-bubble'],
          ['--bubble-theirs-text', '--mark-bg'], ['--text', '--mark-bg'], ['--surface', '--muted']];
        const result = pairs.map(([a, b]) => [a, b, ratio(a, b)]);
        probe.remove();
        return result;
        """
        page = self.browser()
        page.open("#/chats")
        page.wait_for(lambda d: page.find_all("#auth-form"), "the page")
        for dark in (False, True):
            page.set_dark(dark)
            low = [(a, b, round(r, 2)) for a, b, r in page.js(contrast_js) if r < 4.5]
            self.assertEqual(low, [], f"contrast below 4.5:1 ({'dark' if dark else 'light'})")


if __name__ == "__main__":
    unittest.main()
