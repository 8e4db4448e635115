"""Moderation in the web client (PROTOCOL.md §7.3, §7.4, §9.1): membership changes as centred lines of the chat,
messages a moderator removed, Report and a moderator's Delete in the message menu, roles, removals, bans and mutes
from the chat info, the composer of a muted member, and reports resolved from Administration → Reports."""

from harness import api, axe_violations
from webcase import WebClientTestCase, seed
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)

LINES_JS = "return [...document.querySelectorAll('#messages .member-line')].map((line) => line.textContent)"
MUTED_NOTE = "A moderator muted you in this chat"


class ModerationTests(WebClientTestCase):
    def group(self, owner, name, members=()):
        return api(self.base(), "POST", "/rooms", {"kind": "group", "name": name, "members": list(members)},
                   token=owner["token"])

    def lines(self, page):
        return page.js(LINES_JS)

    def wait_for_lines(self, page, expected, what):
        try:
            page.wait_for(lambda d: self.lines(page) == expected, what)
        except AssertionError:
            self.fail(f"{what}: shown {self.lines(page)}")

    def open_info(self, page):
        page.click("#room-info-button", "the chat info button")
        page.wait_for(lambda d: page.find("#room-info").is_displayed(), "the chat info")

    def member_row(self, page, username):
        return f'#room-info-members .member-row[data-username="{username}"]'

    def test_membership_changes_show_as_lines_live_and_after_a_reload(self):
        # setup: Ann's group with Bob; Ann's page is open on it
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        carol, dan = self.user("carol", "Carol Wu"), self.user("dan", "Dan Park")
        room = self.group(ann, "Crew", [bob["user"]["username"]])
        room_id = room["id"]
        seed(ann, room_id, 1, "hello")
        page = self.signed_in(ann)
        self.open_chat(page, room_id)
        # act: Ann adds Carol and Dan, makes Bob a moderator, removes Dan; Carol leaves
        api(self.base(), "POST", f"/rooms/{room_id}/invite", {"username": carol["user"]["username"]}, token=ann["token"])
        api(self.base(), "POST", f"/rooms/{room_id}/invite", {"username": dan["user"]["username"]}, token=ann["token"])
        api(self.base(), "PUT", f"/rooms/{room_id}/members/{bob['user']['id']}/role", {"role": "moderator"}, token=ann["token"])
        api(self.base(), "DELETE", f"/rooms/{room_id}/members/{dan['user']['id']}", token=bob["token"])
        api(self.base(), "POST", f"/rooms/{room_id}/leave", token=carol["token"])
        # validate: live, in Ann's words, and again after a reload (from history)
        expected = ["You added Carol Wu", "You added Dan Park", "You made Bob Chen a moderator",
                    "Bob Chen removed Dan Park", "Carol Wu left"]
        self.wait_for_lines(page, expected, "the membership lines, live")
        self.assertEqual(self.badge(page, room_id), None, "membership lines are not unread")
        preview = page.find(f'.chat-item[data-room-id="{room_id}"] .chat-item-preview').text
        self.assertIn("hello 1", preview, "the chat list still previews the last message")
        page.driver.refresh()
        page.wait_for(lambda d: page.find_all("#composer-input"), "the chat after a reload")
        self.wait_for_lines(page, expected, "the membership lines, after a reload")
        # Bob's page (history only) sees them in his words
        bob_page = self.signed_in(bob)
        self.open_chat(bob_page, room_id)
        self.wait_for_lines(bob_page, ["Ann Lee added Carol Wu", "Ann Lee added Dan Park", "Ann Lee made you a moderator",
                                       "You removed Dan Park", "Carol Wu left"], "Bob's lines")

    def menu_actions(self, page, seq):
        self.open_message_menu(page, seq)
        actions = [item.get_attribute("data-action") for item in page.find_all("#message-menu .menu-item")]
        page.find("#message-menu .menu-item").send_keys("\ue00c")  # Escape
        return actions

    def test_report_for_everyone_and_delete_only_for_moderators(self):
        # setup: Ann owns a group with Bob and Carol; each wrote a message
        ann, bob, carol = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen"), self.user("carol", "Carol Wu")
        room_id = self.group(ann, "Crew", [bob["user"]["username"], carol["user"]["username"]])["id"]
        ann_seq = seed(ann, room_id, 1, "from ann")[0]
        carol_seq = seed(carol, room_id, 1, "from carol")[0]
        bob_page = self.signed_in(bob)
        self.open_chat(bob_page, room_id)
        self.wait_for_texts(bob_page, ["from ann 1", "from carol 1"], "Bob's chat")
        # validate: a member reports, but deletes nobody else's message
        actions = self.menu_actions(bob_page, carol_seq)
        self.assertIn("report", actions)
        self.assertNotIn("remove", actions, "no Delete of others' messages for a member")
        # act: Bob reports Carol's message, then again
        self.choose_menu_item(bob_page, carol_seq, "report")
        bob_page.wait_for(lambda d: bob_page.find("#report-dialog").is_displayed(), "the report dialog")
        bob_page.find("#report-reason").send_keys("spam")
        bob_page.find("#report-submit").click()
        bob_page.wait_for(lambda d: bob_page.find("#toast").text == "Reported", "the note that it was reported")
        self.choose_menu_item(bob_page, carol_seq, "report")
        bob_page.wait_for(lambda d: bob_page.find("#report-dialog").is_displayed(), "the report dialog again")
        bob_page.find("#report-reason").send_keys("still spam")
        bob_page.find("#report-submit").click()
        bob_page.wait_for(lambda d: bob_page.find("#toast").text == "You reported this message already", "already reported")
        # act: Ann makes Bob a moderator; his menu now has Delete (live, from the role event)
        api(self.base(), "PUT", f"/rooms/{room_id}/members/{bob['user']['id']}/role", {"role": "moderator"}, token=ann["token"])
        bob_page.wait_for(lambda d: "remove" in self.menu_actions(bob_page, carol_seq), "Delete for a moderator")
        # a moderator may not delete the owner's message: the refusal is said
        self.choose_menu_item(bob_page, ann_seq, "remove")
        bob_page.wait_for(lambda d: "does not allow" in bob_page.find("#toast").text, "the refusal")
        # he deletes Carol's: both pages say a moderator removed it
        carol_page = self.signed_in(carol)
        self.open_chat(carol_page, room_id)
        self.wait_for_texts(carol_page, ["from ann 1", "from carol 1"], "Carol's chat")
        self.choose_menu_item(bob_page, carol_seq, "remove")
        for page in (bob_page, carol_page):
            page.wait_for(lambda d: page.find(f'#messages .recall-line[data-seq="{carol_seq}"]').text
                          == "Message removed by a moderator", "the moderator wording")
        self.assertEqual(self.history_texts(ann, room_id), ["from ann 1", ""])

    def member_action(self, page, username, action):
        page.click(f'{self.member_row(page, username)} .member-action[data-action="{action}"]', f"{action} for {username}")

    def tags(self, page, username):
        return page.texts(f"{self.member_row(page, username)} .tag")

    def test_the_owner_gives_roles_removes_bans_and_unbans_from_the_chat_info(self):
        # setup: Ann's channel with Bob, Carol and Dan; Carol's page is open on it
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        carol, dan = self.user("carol", "Carol Wu"), self.user("dan", "Dan Park")
        names = {who["user"]["username"] for who in (bob, carol, dan)}
        room_id = self.channel(ann, "News", names)["id"]
        bob_name, carol_name, dan_name = (who["user"]["username"] for who in (bob, carol, dan))
        carol_page = self.signed_in(carol)
        self.open_chat(carol_page, room_id)
        page = self.signed_in(ann)
        self.open_chat(page, room_id)
        self.open_info(page)
        page.wait_for(lambda d: self.tags(page, ann["user"]["username"]) == ["Owner"], "Ann's Owner tag")
        # act: Bob becomes a moderator
        self.member_action(page, bob_name, "make-moderator")
        page.wait_for(lambda d: self.tags(page, bob_name) == ["Moderator"], "Bob's Moderator tag")
        # act: Ann removes Carol, whose open page loses the chat
        self.member_action(page, carol_name, "remove")
        page.wait_for(lambda d: not page.find_all(self.member_row(page, carol_name)), "Carol gone from the members")
        carol_page.wait_for(lambda d: not carol_page.find_all(f'.chat-item[data-room-id="{room_id}"]')
                            and not carol_page.find_all(".chat-view"), "Carol's page without the chat")
        # act: Ann bans Dan; he is in the Banned list, and unbanned again
        self.member_action(page, dan_name, "ban")
        page.wait_for(lambda d: page.find_all(f'#room-info-bans .ban-row[data-username="{dan_name}"]'), "Dan banned")
        self.assertFalse(page.find_all(self.member_row(page, dan_name)))
        with self.assertRaises(Exception):
            api(self.base(), "POST", f"/rooms/{room_id}/join", token=dan["token"])
        page.click(f'#room-info-bans .ban-row[data-username="{dan_name}"] .unban-button', "Unban")
        page.wait_for(lambda d: not page.find_all("#room-info-bans .ban-row"), "nobody banned")
        api(self.base(), "POST", f"/rooms/{room_id}/join", token=dan["token"])
        # validate: Bob, a moderator, may not act on Ann (the owner): no buttons for her, and the lines say it all
        bob_page = self.signed_in(bob)
        self.open_chat(bob_page, room_id)
        self.open_info(bob_page)
        bob_page.wait_for(lambda d: bob_page.find_all(self.member_row(bob_page, dan_name) + " .member-action"), "Bob's actions on Dan")
        self.assertFalse(bob_page.find_all(self.member_row(bob_page, ann["user"]["username"]) + " .member-action"))
        # Dan's joining (just above) may redraw the list while it is read: it is read whole again until it holds.
        dan_actions = self.member_row(bob_page, dan_name) + " .member-action"
        bob_page.wait_for(lambda d: [b.get_attribute("data-action") for b in bob_page.find_all(dan_actions)] == ["mute", "remove", "ban"],
                          "a moderator's actions on Dan: mute, remove and ban, no roles")
        # Ann hands the channel to Bob (asked first): she is a moderator now, and may no longer act on him
        ann_name = ann["user"]["username"]
        self.member_action(page, bob_name, "make-owner")
        page.wait_for(lambda d: self.tags(page, bob_name) == ["Owner"] and self.tags(page, ann_name) == ["Moderator"], "the new owner")
        page.wait_for(lambda d: not page.find_all(self.member_row(page, bob_name) + " .member-action"), "no actions on the owner")
        self.assertIn("confirm: Make Bob Chen the owner of this chat? The current owner becomes a moderator.", page.js("return window.__alerts"))
        page.find("#room-info .dialog-close").click()
        self.wait_for_lines(page, ["You made Bob Chen a moderator", "You removed Carol Wu", "You banned Dan Park", "Dan Park joined",
                                   "You made Bob Chen the owner"], "the lines of it all")

    def test_a_muted_member_sees_a_note_instead_of_the_text_field(self):
        # setup: Ann's group with Bob, whose page is open on it
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        bob_name = bob["user"]["username"]
        room_id = self.group(ann, "Crew", [bob_name])["id"]
        bob_page = self.signed_in(bob)
        self.open_chat(bob_page, room_id)
        # act: Ann mutes Bob from the chat info
        page = self.signed_in(ann)
        self.open_chat(page, room_id)
        self.open_info(page)
        self.member_action(page, bob_name, "mute")
        page.wait_for(lambda d: self.tags(page, bob_name) == ["Muted"], "Bob's Muted tag")
        # validate: Bob's next send is refused and the composer says why
        self.type_and_send(bob_page, "can I still talk?")
        bob_page.wait_for(lambda d: bob_page.find("#composer-muted").is_displayed(), "the muted note")
        self.assertEqual(bob_page.find("#composer-muted").text, MUTED_NOTE)
        self.assertFalse(bob_page.find("#composer-input").is_displayed())
        # a new page knows it from the room's summary
        other_page = self.signed_in(bob)
        other_page.go(f"#/chat/{room_id}")
        other_page.wait_for(lambda d: other_page.find("#composer-muted").is_displayed(), "the muted note from the summary")
        # unmuted (which no event says), the field is back when the chat opens again
        self.member_action(page, bob_name, "unmute")
        page.wait_for(lambda d: self.tags(page, bob_name) == [], "no Muted tag")
        other_page.go("#/contacts")
        other_page.wait_for(lambda d: not other_page.find_all(".chat-view"), "the chat closed")
        self.open_chat(other_page, room_id)
        other_page.wait_for(lambda d: other_page.find("#composer-input").is_displayed(), "the text field again")

    def report_row(self, page, list_id, report_id):
        return f'#{list_id} .report-row[data-id="{report_id}"]'

    def test_a_member_reports_and_an_administrator_resolves_it_from_administration(self):
        # setup: Ann's group with Bob and Carol; Carol wrote something; Ann's page is open on the chat
        ann, bob, carol = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen"), self.user("carol", "Carol Wu")
        room_id = self.group(ann, "Crew", [bob["user"]["username"], carol["user"]["username"]])["id"]
        spam_seq = seed(carol, room_id, 1, "buy now")[0]
        rude_seq = seed(carol, room_id, 1, "rude words")[0]
        ann_page = self.signed_in(ann)
        self.open_chat(ann_page, room_id)
        self.wait_for_texts(ann_page, ["buy now 1", "rude words 1"], "Ann's chat")
        # act: Bob reports both messages (from the menu for the first)
        bob_page = self.signed_in(bob)
        self.open_chat(bob_page, room_id)
        self.wait_for_texts(bob_page, ["buy now 1", "rude words 1"], "Bob's chat")
        self.choose_menu_item(bob_page, spam_seq, "report")
        bob_page.wait_for(lambda d: bob_page.find("#report-dialog").is_displayed(), "the report dialog")
        bob_page.find("#report-reason").send_keys("spam")
        self.assertEqual(axe_violations(bob_page, "the report dialog"), [])
        bob_page.find("#report-submit").click()
        bob_page.wait_for(lambda d: bob_page.find("#toast").text == "Reported", "Reported")
        rude = api(self.base(), "POST", f"/rooms/{room_id}/messages/{rude_seq}/report", {"reason": "rude"}, token=bob["token"])
        spam = next(report for report in api(self.base(), "GET", f"/rooms/{room_id}/reports", token=ann["token"])["reports"]
                    if report["seq"] == spam_seq)
        # an administrator resolves the spam by deleting the message
        root = self.admin("root", "Root Admin")
        admin_page = self.signed_in(root)
        admin_page.go("#/me/admin")
        admin_page.click("#admin-reports-link", "Reports in Administration")
        row = self.report_row(admin_page, "admin-reports", spam["id"])
        admin_page.wait_for(lambda d: admin_page.find_all(row), "the report")
        text = admin_page.find(row).text
        for expected in ("Carol Wu in Crew", "buy now 1", "Reason: spam", "reported by Bob Chen"):
            self.assertIn(expected, text)
        self.assertIn("deactivate-account", [o.get_attribute("value") for o in admin_page.find_all(f"{row} option")])
        self.assertEqual(axe_violations(admin_page, "Administration → Reports"), [])
        admin_page.js("const s = document.querySelector(arguments[0]); s.value = 'delete-message'; s.dispatchEvent(new Event('change'));",
                      f"{row} .resolve-action")
        admin_page.click(f"{row} .resolve-button", "the report's Resolve")
        admin_page.wait_for(lambda d: "Resolved by Root Admin: Delete the message" in admin_page.find(row).text, "resolved")
        # validate: the message is removed, in a moderator's words for the pages that saw it go
        for page in (ann_page, bob_page):
            page.wait_for(lambda d: page.find(f'#messages .recall-line[data-seq="{spam_seq}"]').text
                          == "Message removed by a moderator", "the moderator wording")
        # the owner dismisses the other from the chat's info (no deactivation offered there)
        self.open_info(ann_page)
        row = self.report_row(ann_page, "room-reports", rude["id"])
        ann_page.wait_for(lambda d: ann_page.find_all(row), "the report in the chat info")
        self.assertEqual(len(ann_page.find_all("#room-reports .report-row")), 1, "only the open one")
        self.assertEqual(axe_violations(ann_page, "the chat info with roles, bans and reports"), [])
        self.assertNotIn("deactivate-account", [o.get_attribute("value") for o in ann_page.find_all(f"{row} option")])
        ann_page.click(f"{row} .resolve-button", "the report's Resolve")
        try:
            ann_page.wait_for(lambda d: "Resolved by Ann Lee: Dismiss" in ann_page.find(row).text, "dismissed")
        except AssertionError:
            self.fail(f"not dismissed: {ann_page.find(row).text}")
        # the administrator's list of open reports is empty now
        admin_page.driver.refresh()
        admin_page.wait_for(lambda d: admin_page.find("#admin-reports-status").text in ("", "No reports.")
                            and not admin_page.find_all(f'#admin-reports .report-row[data-id="{spam["id"]}"]')
                            and not admin_page.find_all(f'#admin-reports .report-row[data-id="{rude["id"]}"]'),
                            "neither report among the open ones")
