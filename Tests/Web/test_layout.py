"""The app's screens: phone and desktop layouts, the dark scheme and accessible names; the tabs (Contacts A–Z
with presence, Discover, Me); the chat list's order and times."""

import unittest
import uuid

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from harness import api, png_bytes, register, unique_name
from webcase import DARK_BACKGROUND, WebClientTestCase, rgb
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)


def close_app_tab(browser):
    """Closes the app's tab, as a person closing it would (navigating away may keep the page in the back-forward
    cache with its WebSocket open). A blank tab keeps the session alive."""
    app_tab = browser.driver.current_window_handle
    browser.driver.switch_to.new_window("tab")
    blank_tab = browser.driver.current_window_handle
    browser.driver.switch_to.window(app_tab)
    browser.driver.close()
    browser.driver.switch_to.window(blank_tab)


# Formats fixed instants with the page's own time.js against a fixed "now", in English and in Chinese.
TIME_FORMATS_JS = """
const done = arguments[arguments.length - 1];
Promise.all([import('/js/time.js'), import('/js/strings.js')]).then(([time, strings]) => {
  const now = new Date(2025, 0, 15, 18, 0).getTime(); // a Wednesday
  const instants = {
    today: new Date(2025, 0, 15, 13, 53).getTime(),
    yesterday: new Date(2025, 0, 14, 23, 59).getTime(),
    sunday: new Date(2025, 0, 12, 9, 0).getTime(),
    sameYear: new Date(2025, 0, 2, 9, 0).getTime(),
    lastYear: new Date(2024, 10, 2, 9, 0).getTime(),
  };
  const format = () => Object.fromEntries(Object.entries(instants).map(([name, ms]) => [name, time.formatListTime(ms, now)]));
  const before = strings.currentLanguage();
  strings.setLanguage('en');
  const english = format();
  const todayLabel = time.formatDayLabel(instants.today, now);
  strings.setLanguage('zh-CN');
  const chinese = format();
  strings.setLanguage(before);
  done({ english, chinese, todayLabel });
}, (error) => done({ error: String(error) }));
"""


class LayoutTests(WebClientTestCase):
    BOX_JS = ("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
              "return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, shown: r.width > 0 && r.height > 0};")

    def box(self, page, selector):
        return page.js(self.BOX_JS, selector)

    def test_phone_and_desktop_layouts_dark_scheme_and_accessible_names(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        room_id = self.direct_room(ann, bob)
        bob_socket = self.socket(bob)
        attachment = api(self.base(), "POST", "/attachments?name=dot.png", raw=png_bytes(), content_type="image/png",
                         token=bob["token"])
        bob_socket.send_message(room_id, "", attachments=[attachment["id"]])
        bob_socket.send_message(room_id, "hello there")

        page = self.signed_in(ann, width=390, height=844)
        page.set_viewport(390, 844, mobile=True)
        page.wait_for(lambda d: page.find_all(f'.chat-item[data-room-id="{room_id}"]'), "the chat list")
        self.assertTrue(self.box(page, ".sidebar")["shown"])
        self.assertFalse(self.box(page, ".chat-pane")["shown"], "one pane on a phone")
        self.assertAlmostEqual(self.box(page, ".tabbar")["bottom"], 844, delta=1, msg="the tab bar at the bottom")
        self.open_chat(page, room_id)
        self.assertFalse(self.box(page, ".sidebar")["shown"], "the chat replaces the list on a phone")
        self.assertAlmostEqual(self.box(page, ".chat-pane")["width"], 390, delta=1)

        page.set_viewport(1280, 800)
        page.wait_for(lambda d: self.box(page, ".sidebar")["shown"], "the list beside the chat")
        sidebar, chat = self.box(page, ".sidebar"), self.box(page, ".chat-pane")
        self.assertTrue(chat["shown"])
        self.assertLessEqual(sidebar["right"], chat["left"] + 1, "list and chat side by side")

        self.assertNotEqual(rgb(page.find(".chat-pane").value_of_css_property("background-color")), DARK_BACKGROUND)
        page.set_dark(True)
        page.wait_for(lambda d: rgb(page.find(".chat-pane").value_of_css_property("background-color")) == DARK_BACKGROUND,
                      "the dark background")
        page.set_dark(False)

        page.wait_for(lambda d: any(m["images"] == [True] for m in self.messages(page)), "the image loaded")
        self.open_message_menu(page, self.seq_of(page, "hello there"))
        unnamed = []
        for element in page.find_all("button, img, input, textarea, select, a[href]"):
            if element.get_attribute("aria-hidden") == "true" or not element.is_displayed():
                continue
            if not (element.accessible_name or "").strip():
                unnamed.append(element.get_attribute("outerHTML")[:160])
        self.assertEqual(unnamed, [], "every visible control and image has an accessible name")
        self.assertTrue(page.find("#message-menu").is_displayed(), "the menu was checked too")


# Where each reply quote's text sits against its bubble, and whether it is cut with an ellipsis.
QUOTES_JS = """
return [...document.querySelectorAll('#messages .message.mine .quote-text')].map((text) => {
  const bubble = text.closest('.bubble').getBoundingClientRect();
  const box = text.getBoundingClientRect();
  return {inside: box.left >= bubble.left - 1 && box.right <= bubble.right + 1 && bubble.right <= window.innerWidth,
          cut: text.scrollWidth > text.clientWidth && getComputedStyle(text).textOverflow === 'ellipsis'};
});
"""


class PhoneTests(WebClientTestCase):
    """Issue 34 on a phone: reply quotes stay in their bubble; no field makes iOS zoom."""

    def test_gh34_a_long_reply_quote_ends_in_an_ellipsis_and_fields_are_16px(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        room_id = self.direct_room(ann, bob)
        long_seq = self.socket(bob).send_message(room_id, "A long question about the weekend plans " * 4)
        self.socket(ann).send_message(room_id, "Yes", replyTo=long_seq)
        self.mark_read(ann, room_id)
        page = self.phone(ann)
        self.open_chat(page, room_id)
        page.wait_for(lambda d: page.js(QUOTES_JS), "my reply with its quote")
        for dark in (False, True):
            page.set_dark(dark)
            self.assertEqual(page.js(QUOTES_JS), [{"inside": True, "cut": True}], f"the quote ({'dark' if dark else 'light'})")
        page.set_dark(False)

        self.assertEqual(page.js(SMALL_FIELDS_JS), [], "the composer")
        page.click("#history-search-button", "Search chat history")
        page.wait_for(lambda d: page.find("#history-search-input").is_displayed(), "the chat's search")
        self.assertEqual(page.js(SMALL_FIELDS_JS), [], "the chat's search and its filters")
        for tab, field in (("chats", "#chat-search"), ("contacts", "#contacts-filter"), ("me", "#language")):
            page.go(f"#/{tab}")
            page.wait_for(lambda d: page.find_all(field), f"the {tab} tab")
            self.assertEqual(page.js(SMALL_FIELDS_JS), [], f"the {tab} tab")
        page.go("#/chats")
        page.find("#chat-search").send_keys("a")
        page.click("#search-messages", "the message search")
        page.wait_for(lambda d: page.find_all("#search-after"), "the message search's filters")
        self.assertEqual(page.js(SMALL_FIELDS_JS), [], "the message search and its filters")
        page.find("#new-chat-button").click()
        page.find('#new-chat-menu [data-mode="group"]').click()
        page.wait_for(lambda d: page.find("#people-picker").is_displayed(), "the new group dialog")
        self.assertEqual(page.js(SMALL_FIELDS_JS), [], "the new group dialog")


# The fields on screen whose text is smaller than 16px (iOS zooms into them when they get the focus).
SMALL_FIELDS_JS = """
return [...document.querySelectorAll('input:not([type=radio]):not([type=checkbox]), select, textarea')]
  .filter((field) => field.getClientRects().length > 0 && parseFloat(getComputedStyle(field).fontSize) < 16)
  .map((field) => `#${field.id} ${getComputedStyle(field).fontSize}`);
"""


# How far each section title of Me sits from the top of its card and from what follows it.
TITLE_SPACING_JS = """
return [...document.querySelectorAll('.me-view .settings-group > .section-title')].map((title) => {
  const box = title.getBoundingClientRect();
  return {above: box.top - title.parentElement.getBoundingClientRect().top,
          below: title.nextElementSibling.getBoundingClientRect().top - box.bottom};
});
"""


class DesktopTests(WebClientTestCase):
    """Issue 34 on a desktop. Defect 4: the connection light is the app's, not beside the other person's name.
    Defect 11: Me and Discover use the main pane; group and people's avatars; Me's section titles; radio buttons in
    the dark."""

    BOX_JS = LayoutTests.BOX_JS

    def test_gh34_connection_light_wide_me_and_discover_group_avatars_titles_and_dark_radios(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        mixed = self.channel(ann, f"Fun 猎人 {uuid.uuid4().hex[:4]}")["id"]
        chinese = api(self.base(), "POST", "/rooms", {"kind": "group", "name": "周末旅行", "members": []}, token=ann["token"])["id"]
        direct = self.direct_room(ann, bob)
        mixed_person = self.direct_room(ann, self.user("fun", "Fun 猎人"))
        page = self.signed_in(ann, dark=True)

        self.open_chat(page, direct)
        page.wait_for(lambda d: page.find(".topbar .status-light").get_attribute("data-state") == "online", "connected")
        self.assertEqual(page.find_all(".chat-header .status-light"), [], "no light beside Bob's name")
        self.assertEqual(page.find(".topbar .status-light").accessible_name, "Connected")

        def avatar(room_id):
            return page.find(f'.chat-item[data-room-id="{room_id}"] .avatar').text
        page.wait_for(lambda d: avatar(mixed) and avatar(chinese) and avatar(mixed_person), "the rooms in the list")
        self.assertEqual((avatar(mixed), avatar(chinese)), ("F", "周"), "one grapheme, one script")
        self.assertEqual((avatar(direct), avatar(mixed_person)), ("BC", "F"), "a person's initials: two of one script, or one")

        for tab, view in (("me", ".me-view"), ("discover", ".discover-view")):
            page.go(f"#/{tab}")
            page.wait_for(lambda d: page.find_all(view), tab)
            self.assertFalse(page.js(self.BOX_JS, ".chat-pane")["shown"], f"no empty chat pane beside {tab}")
            self.assertGreater(page.js(self.BOX_JS, view)["width"], 600, f"{tab} has the main pane's width")
        page.go("#/me")
        page.wait_for(lambda d: page.find_all(".me-view"), "Me")
        for spacing in page.js(TITLE_SPACING_JS):
            self.assertGreaterEqual(spacing["above"], 8, "a title has room above it in its card")
            self.assertGreaterEqual(spacing["below"], 8, "and below it")
        page.go("#/discover")
        radio = page.wait_for(lambda d: page.find("#kind-group"), "Discover")
        self.assertEqual(rgb(radio.value_of_css_property("accent-color")), (7, 193, 96), "the dark scheme's green")


class TabTests(WebClientTestCase):
    def test_contacts_a_to_z_with_presence_discover_member_counts_and_me_version(self):
        tag = uuid.uuid4().hex[:8]
        viewer = self.user("view")
        names = ["charlie", "Bravo", "alpha", "Delta"]
        people = {name: register(self.base(), unique_name("p"), f"{name} {tag}") for name in names}
        bravo = people["Bravo"]
        self.direct_room(viewer, bravo)  # presence is shared with the people one shares a room with
        for name in ("charlie", "alpha", "Delta"):  # Contacts lists the people I talk to or added (§6.4)
            api(self.base(), "POST", "/me/contacts", {"username": people[name]["user"]["username"]}, token=viewer["token"])
        page = self.signed_in(viewer)
        bravo_page = self.signed_in(bravo)

        page.go("#/contacts")
        page.find("#contacts-filter").send_keys(tag)
        page.wait_for(lambda d: page.texts(".contact-item .contact-name")
                      == [f"{name} {tag}" for name in ("alpha", "Bravo", "charlie", "Delta")], "contacts A–Z, any case")

        def online(person):
            dot = page.find(f'.contact-item[data-username="{person["user"]["username"]}"] .presence-dot')
            return "online" in dot.get_attribute("class").split()
        page.wait_for(lambda d: online(bravo), "Bravo online while his page is open")
        self.assertFalse(online(people["alpha"]))
        close_app_tab(bravo_page)
        page.wait_for(lambda d: not online(bravo), "Bravo offline once his page is gone")

        club = self.channel(people["alpha"], unique_name("Club "), [people["charlie"]["user"]["username"],
                                                                   viewer["user"]["username"]])["id"]
        page.go("#/discover")
        detail = page.wait_for(lambda d: page.find(f'.channel-item[data-room-id="{club}"] .contact-detail'), "the club in Discover")
        self.assertEqual(detail.text, "3 members")

        version = api(self.base(), "GET", "/config")["version"]
        page.go("#/me")
        page.wait_for(lambda d: page.find("#server-version").text == version, "the server's version in Me")


class ChatListTests(WebClientTestCase):
    def test_newest_activity_first_with_times_and_a_today_separator(self):
        owner, viewer = self.user("own"), self.user("view")
        rooms = [self.channel(owner, unique_name(f"Order {label} "), [viewer["user"]["username"]])["id"] for label in "ABC"]
        page = self.signed_in(viewer)
        talk = self.socket(owner)

        def order():
            return [item.get_attribute("data-room-id") for item in page.find_all(".chat-item")
                    if item.get_attribute("data-room-id") in rooms]

        # Each message waits for the list, so the three are surely apart in time.
        for index, room_id in enumerate(rooms):
            talk.send_message(room_id, f"hello {index}")
            page.wait_for(lambda d: order()[0] == room_id, f"room {index} first after its message")
        self.assertEqual(order(), rooms[::-1])
        talk.send_message(rooms[0], "again")
        page.wait_for(lambda d: order() == [rooms[0], rooms[2], rooms[1]], "the first room back on top")

        time_text = page.find(f'.chat-item[data-room-id="{rooms[0]}"] .chat-item-time').text
        self.assertRegex(time_text, r"^\d\d:\d\d$", "today's messages show their clock time")
        self.open_chat(page, rooms[0])
        self.wait_for_texts(page, ["hello 0", "again"], "the chat")
        self.assertEqual(page.texts("#messages .day-separator"), ["Today"])

        # Issue 34: Ctrl+K finds a chat by name; Enter opens it.
        ActionChains(page.driver).key_down(Keys.CONTROL).send_keys("k").key_up(Keys.CONTROL).perform()
        page.wait_for(lambda d: page.find("#quick-switcher").is_displayed(), "the quick switcher")
        self.assertEqual(page.js("return document.activeElement.id"), "quick-switcher-input")
        name = page.find(f'.chat-item[data-room-id="{rooms[1]}"] .chat-item-name').text
        page.find("#quick-switcher-input").send_keys(name.split()[-1], Keys.ENTER)
        page.wait_for(lambda d: page.find(".chat-view").get_attribute("data-room-id") == rooms[1], "the chat chosen")
        self.assertFalse(page.find("#quick-switcher").is_displayed())

    def test_times_are_shown_the_way_chat_apps_do(self):
        page = self.browser()
        page.open("#/chats")
        page.wait_for(lambda d: page.find_all("#auth-form"), "the page")
        formats = page.driver.execute_async_script(TIME_FORMATS_JS)
        self.assertNotIn("error", formats)
        self.assertEqual(formats["english"], {
            "today": "13:53", "yesterday": "Yesterday", "sunday": "Sunday", "sameYear": "1/2", "lastYear": "11/2/2024"})
        self.assertEqual(formats["chinese"], {
            "today": "13:53", "yesterday": "昨天", "sunday": "星期日", "sameYear": "1/2", "lastYear": "2024/11/2"})
        self.assertEqual(formats["todayLabel"], "Today")


if __name__ == "__main__":
    unittest.main()
