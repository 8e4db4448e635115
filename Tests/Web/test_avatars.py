"""Pictures (issue 34, PROTOCOL §6.5, §7.7): my picture set through the crop dialog shows to others in their chat
list and bubbles and goes back to initials when removed; a group's owner sets its picture and its members see it; a
file that is not an image shows the server's refusal; axe finds nothing in the crop dialog. Screenshots of pictures
in light and dark."""

import os
import struct
import tempfile
import zlib

from selenium.webdriver.common.keys import Keys

from harness import REPO, api, axe_violations, png_bytes
from webcase import WebClientTestCase
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)

PICTURE_JS = """
const avatar = document.querySelector(arguments[0]);
const img = avatar && avatar.querySelector('img.avatar-picture');
return avatar && {picture: avatar.classList.contains('has-picture'), src: img ? img.getAttribute('src') : null,
  width: img ? img.naturalWidth : 0, height: img ? img.naturalHeight : 0, initials: avatar.textContent};
"""


class AvatarTests(WebClientTestCase):
    def picture_file(self, data, suffix=".png"):
        """A file on disk for the file chooser (Selenium sends a path), removed when the test ends."""
        handle, path = tempfile.mkstemp(suffix=suffix)
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        self.addCleanup(os.remove, path)
        return path

    def avatar(self, page, selector):
        return page.js(PICTURE_JS, selector)

    def wait_for_picture(self, page, selector, what, shown=True):
        """Waits until the avatar at `selector` shows a loaded picture (or, `shown=False`, only its initials)."""
        return page.wait_for(lambda d: (lambda a: a and a["picture"] == shown and (not shown or a["width"] > 0) and a)(
            self.avatar(page, selector)), what)

    def choose_and_crop(self, page, prefix, path, check=None):
        """Chooses `path` with the `prefix` picture controls, moves and zooms it in the crop dialog, saves."""
        page.find(f"#{prefix}-picture-file").send_keys(path)
        page.wait_for(lambda d: page.find("#crop-dialog").get_attribute("open") is not None, "the crop dialog")
        canvas = page.find(".crop-canvas")
        self.assertEqual(page.driver.switch_to.active_element, canvas, "the crop area has the focus")
        canvas.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_DOWN, "+", "+")
        self.assertGreater(float(page.find("#crop-zoom").get_attribute("value")), 1, "+ zooms in")
        if check:
            check()
        page.find("#crop-save").click()
        page.wait_for(lambda d: not page.find_all("#crop-dialog"), "the crop dialog closed")

    def test_gh34_my_picture_shows_to_others_and_removing_it_brings_back_the_initials(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob")
        room_id = self.direct_room(ann, bob)
        self.socket(ann).send_message(room_id, "hello from Ann")
        page = self.signed_in(ann)
        page.go("#/me")
        page.wait_for(lambda d: page.find_all("#me-change-picture"), "Change picture on Me")
        self.assertTrue(page.find("#me-remove-picture").get_attribute("hidden") is not None, "nothing to remove yet")

        def axe_on_dialog():
            self.assertEqual(axe_violations(page, "the crop dialog"), [])
            out = os.environ.get("SCREENSHOT_DIR", os.path.join(REPO, "docs", "screenshots"))
            page.screenshot(os.path.join(out, "picture-crop-dialog-desktop-light.png"))
        self.choose_and_crop(page, "me", self.picture_file(picture_png((200, 60, 60), 400, 300)), axe_on_dialog)
        page.wait_for(lambda d: page.find("#me-picture-status").text == "Picture saved.", "the picture saved")
        mine = self.wait_for_picture(page, ".me-header .avatar", "my picture on Me at once")
        self.assertEqual((mine["width"], mine["height"]), (256, 256), "cropped to 256×256")
        profile = api(self.base(), "GET", "/me", token=ann["token"])
        self.assertEqual(mine["src"], profile["avatarURL"])

        other = self.signed_in(bob)
        item = f'#chat-list [data-room-id="{room_id}"] .avatar'
        self.assertEqual(self.wait_for_picture(other, item, "Ann's picture in Bob's chat list")["src"], profile["avatarURL"])
        self.open_chat(other, room_id)
        self.wait_for_picture(other, "#messages .message.theirs .avatar", "Ann's picture beside her bubble")
        self.wait_for_picture(other, ".chat-header-avatar .avatar", "Ann's picture in the chat's header")

        page.find("#me-remove-picture").click()
        page.wait_for(lambda d: page.find("#me-picture-status").text == "Picture removed.", "the picture removed")
        self.assertIsNone(api(self.base(), "GET", "/me", token=ann["token"]).get("avatarURL"))
        self.assertEqual(self.wait_for_picture(page, ".me-header .avatar", "my initials again", shown=False)["initials"], "AL")
        other.driver.refresh()
        other.wait_for(lambda d: other.find_all(item), "Bob's chat list again")
        self.assertEqual(self.wait_for_picture(other, item, "Ann's initials in Bob's list", shown=False)["initials"], "AL")

    def test_gh34_a_group_picture_set_by_its_owner_shows_to_its_members(self):
        ann, bob = self.user("ann"), self.user("bob")
        group = api(self.base(), "POST", "/rooms", {"kind": "group", "name": "Tea club", "members": [bob["user"]["username"]]},
                    token=ann["token"])["id"]
        member = self.signed_in(bob)
        self.open_chat(member, group)
        member.find("#room-info-button").click()
        member.wait_for(lambda d: member.find("#room-info").get_attribute("open") is not None, "the group's details")
        self.assertEqual(member.find_all("#room-change-picture"), [], "a member does not change the group's picture")

        page = self.signed_in(ann)
        self.open_chat(page, group)
        page.find("#room-info-button").click()
        page.wait_for(lambda d: page.find_all("#room-change-picture"), "Change picture for the owner")
        self.choose_and_crop(page, "room", self.picture_file(png_bytes(300, 500, (60, 90, 200))))
        page.wait_for(lambda d: page.find("#room-picture-status").text == "Picture saved.", "the group picture saved")
        summary = next(room for room in api(self.base(), "GET", "/rooms", token=bob["token"]) if room["id"] == group)
        self.assertTrue(summary["avatarURL"].startswith("/api/v1/avatars/"))
        self.wait_for_picture(page, f'#chat-list [data-room-id="{group}"] .avatar', "the owner's list shows it at once")

        member.driver.refresh()
        shown = self.wait_for_picture(member, f'#chat-list [data-room-id="{group}"] .avatar', "the group's picture for Bob")
        self.assertEqual(shown["src"], summary["avatarURL"])

    def test_gh34_a_file_that_is_not_an_image_shows_the_servers_refusal(self):
        ann = self.user("ann")
        page = self.signed_in(ann)
        page.js("localStorage.setItem('swiftchat.language', 'zh-CN')")
        page.driver.refresh()
        page.wait_for(lambda d: page.find_all("#chat-list"), "the chat list")
        page.go("#/me")
        page.wait_for(lambda d: page.find_all("#me-change-picture"), "Change picture on Me")
        self.assertEqual(page.find("#me-change-picture").text, "更换头像")
        page.find("#me-picture-file").send_keys(self.picture_file(b"just some words, not a picture\n", ".txt"))
        page.wait_for(lambda d: page.find("#me-picture-status").text == "不支持该图片格式。", "the server's 415 in words")
        self.assertEqual(page.find_all("#crop-dialog"), [], "no crop dialog for a file that is not an image")
        self.assertIsNone(api(self.base(), "GET", "/me", token=ann["token"]).get("avatarURL"))

    def test_gh34_screenshots_of_pictures(self):
        out = os.environ.get("SCREENSHOT_DIR", os.path.join(REPO, "docs", "screenshots"))
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        for session, colour in ((ann, (230, 120, 80)), (bob, (70, 140, 210))):
            api(self.base(), "PUT", "/me/avatar", raw=picture_png(colour), content_type="image/png", token=session["token"])
        room_id = self.direct_room(ann, bob)
        group = api(self.base(), "POST", "/rooms", {"kind": "group", "name": "Weekend trip", "members": [bob["user"]["username"]]},
                    token=ann["token"])["id"]
        api(self.base(), "PUT", f"/rooms/{group}/avatar", raw=picture_png((90, 180, 120)), content_type="image/png", token=ann["token"])
        ann_socket, bob_socket = self.socket(ann), self.socket(bob)
        bob_socket.send_message(group, "Train tickets are booked 🚆")
        ann_socket.send_message(room_id, "Hi Bob! Are we still on for dinner?")
        bob_socket.send_message(room_id, "Yes! 7 pm at the usual place?")
        self.mark_read(ann, room_id)
        for dark in (False, True):
            scheme = "dark" if dark else "light"
            page = self.phone(ann, dark=dark)
            self.wait_for_picture(page, f'#chat-list [data-room-id="{group}"] .avatar', "the group's picture")
            self.wait_for_picture(page, f'#chat-list [data-room-id="{room_id}"] .avatar', "Bob's picture")
            page.screenshot(os.path.join(out, f"pictures-chat-list-phone-{scheme}.png"))
            self.open_chat(page, room_id)
            self.wait_for_picture(page, "#messages .message.theirs .avatar", "Bob's picture by his bubble")
            page.screenshot(os.path.join(out, f"pictures-chat-phone-{scheme}.png"))
            page.quit()


def picture_png(colour, width=256, height=256):
    """A picture with something to see: a head and shoulders of `colour` on white, so a crop or a scaling shows."""
    rows = b""
    side = min(width, height)
    for y in range(height):
        row = bytearray(b"\x00")
        for x in range(width):
            inside = (x - width / 2) ** 2 + (y - height / 2.6) ** 2 < (side / 4) ** 2 or \
                (x - width / 2) ** 2 + (y - height * 1.1) ** 2 < (side / 2.2) ** 2
            row += bytes(colour) if inside else b"\xf4\xf4\xf4"
        rows += bytes(row)

    def chunk(kind, data):
        return struct.pack("!I", len(data)) + kind + data + struct.pack("!I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack("!IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
