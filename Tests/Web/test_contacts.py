"""Contacts are people, not the whole server (issue 34's web half; PROTOCOL.md §6.4): the Contacts tab lists the
people I share a direct room or group with and those I added, A–Z; Add contact (in Contacts and in the ⊕ menu) finds
someone by username and adds them ("No such user" otherwise); one I added can be removed, and stays listed when a
shared room keeps them a contact. New chat and New group pick from my contacts."""

import unittest
import uuid

from selenium.webdriver.common.keys import Keys

from harness import api, axe_violations, register, unique_name
from webcase import WebClientTestCase
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)


class ContactsTests(WebClientTestCase):
    def names(self, page):
        return page.texts("#contact-list .contact-item .contact-name")

    def contacts(self, session):
        return sorted(c["user"]["username"] for c in api(self.base(), "GET", "/me/contacts", token=session["token"])["contacts"])

    def test_gh34_contacts_are_the_people_i_talk_to_and_those_i_add_or_remove(self):
        # setup: Ann talks with Bob; Dave is on the server but nobody Ann knows; Carol shares a group with Ann
        tag = uuid.uuid4().hex[:6]
        ann = self.user("ann", "Ann Lee")
        bob, carol, dave = (register(self.base(), unique_name(name), f"{name.title()} {tag}") for name in ("bob", "carol", "dave"))
        self.direct_room(ann, bob)
        api(self.base(), "POST", "/rooms", {"kind": "group", "name": "Choir", "members": [carol["user"]["username"]]}, token=ann["token"])
        page = self.signed_in(ann)

        # validate: Bob and Carol, A–Z; not Dave
        page.go("#/contacts")
        page.wait_for(lambda d: self.names(page) == [f"Bob {tag}", f"Carol {tag}"], "only the people Ann talks with")
        self.assertEqual(page.find_all("#contact-list .contact-remove"), [], "nobody added by hand yet")

        # act: Add contact from the Contacts tab, by the keyboard: a wrong name first
        page.find("#add-contact").send_keys(Keys.ENTER)
        page.wait_for(lambda d: page.find("#people-picker").is_displayed(), "the Add contact dialog")
        self.assertEqual(page.find("#people-picker-title").text, "Add contact")
        page.find("#people-search").send_keys(f"nobody{tag}", Keys.ENTER)
        page.wait_for(lambda d: page.find("#people-results").text == "No such user.", "No such user")
        for dark in (False, True):
            page.set_dark(dark)
            self.assertEqual(axe_violations(page, f"add contact {'dark' if dark else 'light'}"), [])
        page.set_dark(False)
        page.find("#people-search").clear()
        page.find("#people-search").send_keys(dave["user"]["username"], Keys.ENTER)
        found = f'#people-results .contact-item[data-username="{dave["user"]["username"]}"]'
        page.wait_for(lambda d: page.find_all(found), "Dave found")
        page.find(found).click()

        # validate: added on the server, listed with a Remove button
        page.wait_for(lambda d: page.find("#toast").text == f"Dave {tag} is now a contact.", "the note")
        page.wait_for(lambda d: self.names(page) == [f"Bob {tag}", f"Carol {tag}", f"Dave {tag}"], "Dave listed")
        self.assertIn(dave["user"]["username"], self.contacts(ann))
        self.assertEqual([b.get_attribute("data-username") for b in page.find_all("#contact-list .contact-remove")], [dave["user"]["username"]])
        self.assertEqual(axe_violations(page, "contacts with a Remove button"), [])

        # act: add Bob too (a shared room makes him a contact already), from the ⊕ menu
        page.go("#/chats")
        page.click("#new-chat-button", "⊕")
        page.click('#new-chat-menu [data-mode="contact"]', "Add contact")
        page.find("#people-search").send_keys(bob["user"]["username"], Keys.ENTER)
        page.click(f'#people-results .contact-item[data-username="{bob["user"]["username"]}"]', "Bob found")
        page.wait_for(lambda d: page.find("#toast").text == f"Bob {tag} is now a contact.", "Bob added")
        page.go("#/contacts")
        page.wait_for(lambda d: len(page.find_all("#contact-list .contact-remove")) == 2, "two added contacts")

        # act: remove both: Dave goes; Bob stays (our direct room keeps him)
        page.click(f'#contact-list .contact-remove[data-username="{dave["user"]["username"]}"]', "Remove Dave")
        page.wait_for(lambda d: self.names(page) == [f"Bob {tag}", f"Carol {tag}"], "Dave gone")
        page.click(f'#contact-list .contact-remove[data-username="{bob["user"]["username"]}"]', "Remove Bob")
        page.wait_for(lambda d: page.find_all("#contact-list .contact-remove") == [], "nobody added any more")
        self.assertEqual(self.names(page), [f"Bob {tag}", f"Carol {tag}"], "Bob stays: a shared room keeps him")
        self.assertEqual(self.contacts(ann), sorted([bob["user"]["username"], carol["user"]["username"]]))
        self.assert_no_alerts(page)

    def test_gh34_new_group_picks_from_contacts_on_a_phone_in_traditional_chinese(self):
        tag = uuid.uuid4().hex[:6]
        ann = self.user("ann", "Ann Lee")
        bob, stranger = (register(self.base(), unique_name(name), f"{name.title()} {tag}") for name in ("bob", "stranger"))
        self.direct_room(ann, bob)
        page = self.browser(width=390, height=844)
        page.open("#/chats")
        page.js("localStorage.setItem('swiftchat.language', 'zh-Hant')")
        page.sign_in_with(ann)
        page.set_viewport(390, 844, mobile=True)
        page.click("#new-chat-button", "⊕")
        page.click('#new-chat-menu [data-mode="group"]', "New group")
        page.find("#people-search").send_keys(tag)
        page.wait_for(lambda d: page.texts("#people-results .contact-name") == [f"Bob {tag}"],
                      "only a contact to pick, not the stranger")
        page.find("#people-picker .dialog-close").click()
        page.go("#/contacts")
        page.wait_for(lambda d: page.find("#add-contact").text == "新增聯絡人", "Add contact in Traditional Chinese")
        page.find("#add-contact").click()
        page.find("#people-search").send_keys(f"nobody{tag}", Keys.ENTER)
        page.wait_for(lambda d: page.find("#people-results").text == "沒有這個使用者。", "No such user in Traditional Chinese")
        page.find("#people-search").clear()
        page.find("#people-search").send_keys(stranger["user"]["username"], Keys.ENTER)
        page.click(f'#people-results .contact-item[data-username="{stranger["user"]["username"]}"]', "the stranger found")
        page.wait_for(lambda d: self.names(page) == [f"Bob {tag}", f"Stranger {tag}"], "the stranger is a contact now")
        self.assertEqual(page.find(f'#contact-list .contact-remove[data-username="{stranger["user"]["username"]}"]').get_attribute("aria-label"),
                         f"從通訊錄移除 Stranger {tag}")
        self.assert_no_alerts(page)


if __name__ == "__main__":
    unittest.main()
