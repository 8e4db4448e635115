"""Link previews in the web client (issue 33; PROTOCOL.md §9.1 `preview`): store.js folds `preview` events into
their message as it folds edits (never a bubble, never unread; a tombstone keeps no card), the card is one link
with a sensible name, and against a server of its own that makes previews (`--link-previews true`, which the shared
server's harness turns off, and `--outbound-allow 127.0.0.0/8` so it may fetch a page from a loopback server of the
test's own) a message with a link shows the page's card, which its sender can remove."""

import http.server
import os
import threading
import unittest

from harness import Browser, api, png_bytes
from webcase import WebClientTestCase, server
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)

ME = {"id": "C0000000-0000-0000-0000-00000000000C", "username": "cat", "displayName": "Cat"}
ROOM = "9C1E0000-0000-0000-0000-000000000001"
BOT = {"id": "B0000000-0000-0000-0000-00000000000B", "name": "ci-bot"}
PREVIEW = {"url": "https://example.org/kyoto", "title": "Autumn in Kyoto", "siteName": "Example Travel",
           "description": "Temples, maples and the best tofu in town: a week in Kyoto in November.",
           "image": {"id": "5B0B0000-0000-0000-0000-000000000001", "name": "kyoto.png", "contentType": "image/png",
                     "size": 1200, "width": 64, "height": 64}}


def event(seq, kind="message", **fields):
    return {"type": "message", "kind": kind, "room": ROOM, "seq": seq, "id": f"E{seq}", "date": 1795896000000 + seq,
            "sender": BOT, **fields}


# Applies `steps` ({live: [events]} or {page: [events]}) to a fresh Store of the page's store.js and answers the
# room's messages and unread count, with the card and the message element built from the last message.
FOLD_AND_RENDER_JS = """
const [steps, me, room, bot, done] = arguments;
Promise.all([import('/js/store.js'), import('/js/views/messageItem.js')]).then(([{ Store }, { messageElement }]) => {
  try {
    const store = new Store(me);
    store.upsertRoom({ id: room, kind: 'group', name: 'Previews', latestSeq: 0, lastReadSeq: 0, unreadCount: 0 });
    for (const step of steps) {
      if (step.ack) store.addAcknowledgedMessage(step.ack, { frame: { text: step.text }, meta: {} });
      for (const event of step.live ?? []) store.applyLiveEvent(structuredClone(event), { live: true });
      if (step.page) store.applyHistoryPage(room, { messages: structuredClone(step.page), hasMore: false }, { newest: true });
    }
    const messages = store.orderedMessages(room);
    const shown = messages.filter((message) => !message.deleted).at(-1);
    const node = shown && messageElement(shown, {
      mine: false, showSender: true, showRead: false, me: me.id, senderProfile: { id: bot.id, displayName: 'CI', bot: true },
      nameOf: (person) => person.name, attachmentURL: (id) => `/api/v1/attachments/${id}?token=t`, reactorName: () => '',
      onActions() {}, mentionsMe: () => false,
    });
    const card = node?.querySelector('.link-preview');
    done({
      messages: messages.map(({ seq, text, deleted, preview }) => ({ seq, text, deleted: deleted ?? false, preview: preview ?? null })),
      unread: store.rooms.get(room).unreadCount,
      badge: node?.querySelector('.sender-badge')?.textContent ?? null,
      card: card && {
        tag: card.tagName, href: card.getAttribute('href'), target: card.target, rel: card.rel,
        label: card.getAttribute('aria-label'), inBubble: Boolean(card.closest('.bubble')),
        site: card.querySelector('.link-preview-site')?.textContent, title: card.querySelector('.link-preview-title')?.textContent,
        description: card.querySelector('.link-preview-description')?.textContent,
        image: card.querySelector('img')?.getAttribute('src') ?? null, imageAlt: card.querySelector('img')?.alt ?? null,
      },
    });
  } catch (error) {
    done({ error: String(error?.stack ?? error) });
  }
}, (error) => done({ error: String(error) }));
"""


class PreviewFoldingTests(WebClientTestCase):
    """store.js and the card, in the page, without a server that makes previews."""

    @classmethod
    def setUpClass(cls):
        # One page for every case: each builds a Store of its own.
        cls.page = Browser(server.base_url)
        cls.page.open("#/chats")
        cls.page.wait_for(lambda d: cls.page.find_all("#auth-form"), "the page")

    @classmethod
    def tearDownClass(cls):
        cls.page.quit()

    def fold(self, steps):
        result = self.page.driver.execute_async_script(FOLD_AND_RENDER_JS, steps, ME, ROOM, BOT)
        self.assertNotIn("error", result)
        return result

    def test_gh33_a_preview_event_sets_and_removes_the_card_and_is_never_unread(self):
        message = event(1, text="see https://example.org/kyoto")
        result = self.fold([{"live": [message, event(2, "preview", target=1, preview=PREVIEW)]}])
        self.assertEqual([m["seq"] for m in result["messages"]], [1], "a preview is no message of its own")
        self.assertEqual(result["messages"][0]["preview"], PREVIEW)
        self.assertEqual(result["unread"], 1, "only the message is unread")
        self.assertEqual(result["badge"], "Bot")
        self.assertEqual(result["card"], {
            "tag": "A", "href": "https://example.org/kyoto", "target": "_blank", "rel": "noopener noreferrer",
            "label": "Link preview: Autumn in Kyoto (Example Travel)", "inBubble": True, "site": "Example Travel",
            "title": "Autumn in Kyoto", "description": PREVIEW["description"],
            "image": f"/api/v1/attachments/{PREVIEW['image']['id']}?token=t", "imageAlt": ""})

        # removed: an event without `preview`; met again (a replay) it changes nothing
        removal = event(3, "preview", target=1)
        result = self.fold([{"live": [message, event(2, "preview", target=1, preview=PREVIEW), removal, event(2, "preview", target=1, preview=PREVIEW)]}])
        self.assertIsNone(result["messages"][0]["preview"])
        self.assertIsNone(result["card"])

        # a page brings the message in its current state: the page's own older preview event changes nothing
        result = self.fold([{"page": [dict(message, preview=PREVIEW), event(2, "preview", target=1)]}])
        self.assertEqual(result["messages"][0]["preview"], PREVIEW, "the page's state includes its events")

    def test_gh33_my_message_shown_from_its_ack_gets_the_preview_its_frame_carries(self):
        text = "see https://example.org/kyoto"
        ack = {"type": "ack", "clientMsgID": "c1", "room": ROOM, "seq": 1, "id": "E1", "date": 1795896000001}
        mine = dict(event(1, text=text, preview=PREVIEW, clientMsgID="c1"), sender={"id": ME["id"], "name": ME["username"]})
        result = self.fold([{"ack": ack, "text": text}, {"live": [mine]}])
        self.assertEqual(result["messages"], [{"seq": 1, "text": text, "deleted": False, "preview": PREVIEW}])
        self.assertEqual(result["unread"], 0)
        # a change folded into the stand-in first is newer than the frame: the frame does not undo it
        edited = event(2, "edit", target=1, text="edited", sender={"id": ME["id"], "name": ME["username"]})
        result = self.fold([{"ack": ack, "text": text}, {"live": [edited, mine]}])
        self.assertEqual(result["messages"][0]["text"], "edited")

    def test_gh33_a_deleted_message_shows_no_card_and_only_web_addresses_make_one(self):
        message = event(1, text="see https://example.org/kyoto", preview=PREVIEW)
        result = self.fold([{"live": [message, event(2, "delete", target=1, text="")]}])
        self.assertEqual(result["messages"][0]["deleted"], True)
        self.assertIsNone(result["messages"][0]["preview"], "a tombstone keeps no preview")
        result = self.fold([{"live": [message, event(2, "delete", target=1, text=""), event(3, "preview", target=1, preview=PREVIEW)]}])
        self.assertIsNone(result["messages"][0]["preview"], "a preview fetched after the delete is not shown")

        untitled = {"url": "https://example.org/x"}
        result = self.fold([{"live": [event(1, text="x", preview=untitled)]}])
        self.assertEqual((result["card"]["label"], result["card"]["site"], result["card"]["title"], result["card"]["image"]),
                         ("Link preview: example.org", "example.org", None, None))
        result = self.fold([{"live": [event(1, text="x", preview={"url": "javascript:alert(1)", "title": "Click"})]}])
        self.assertIsNone(result["card"], "no card opens anything but a web page")


class PreviewPageHandler(http.server.BaseHTTPRequestHandler):
    """A page with Open Graph tags and its image, as a site would serve them."""

    def do_GET(self):
        base = f"http://127.0.0.1:{self.server.server_port}"
        if self.path.startswith("/image.png"):
            body, kind = png_bytes(120, 120, (230, 120, 60)), "image/png"
        else:
            body = (f'<!doctype html><html><head><title>Kyoto</title>'
                    f'<meta property="og:title" content="Autumn in Kyoto">'
                    f'<meta property="og:description" content="Temples, maples and the best tofu in town.">'
                    f'<meta property="og:site_name" content="Example Travel">'
                    f'<meta property="og:image" content="{base}/image.png">'
                    f'</head><body>Kyoto</body></html>').encode()
            kind = "text/html; charset=utf-8"
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


class LivePreviewTests(WebClientTestCase):
    """Against a server that makes previews: the card arrives, and its sender removes it."""

    def test_gh33_a_link_gets_its_pages_card_and_the_sender_removes_it(self):
        # setup: a page to preview, and a server that may fetch it
        site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), PreviewPageHandler)
        threading.Thread(target=site.serve_forever, daemon=True).start()
        self.addCleanup(site.server_close)
        self.addCleanup(site.shutdown)
        own = self.own_server(["--link-previews", "true", "--outbound-allow", "127.0.0.0/8"])
        ann, bob = self.user("ann", "Ann Lee", base_url=own.base_url), self.user("bob", "Bob Chen", base_url=own.base_url)
        group = api(own.base_url, "POST", "/rooms", {"kind": "group", "name": "Trip", "members": [bob["user"]["username"]]},
                    token=ann["token"])["id"]
        page = self.browser(own.base_url)
        page.sign_in_with(ann)
        self.open_chat(page, group)
        link = f"http://127.0.0.1:{site.server_port}/kyoto"

        # act
        self.type_and_send(page, f"Look: {link}")

        # validate: the card, one link with the page's words and image
        card = "#messages .message.mine .link-preview"
        page.wait_for(lambda d: page.find_all(card), "the link's preview card", timeout=30)
        self.assertEqual(page.find(f"{card} .link-preview-title").text, "Autumn in Kyoto")
        self.assertEqual(page.find(f"{card} .link-preview-site").text, "Example Travel")
        self.assertEqual(page.find(f"{card} .link-preview-description").text, "Temples, maples and the best tofu in town.")
        self.assertEqual(page.find(card).get_attribute("href"), link)
        self.assertEqual(page.find(card).get_attribute("aria-label"), "Link preview: Autumn in Kyoto (Example Travel)")
        page.wait_for(lambda d: page.js(f"const i = document.querySelector('{card} img'); return Boolean(i && i.complete && i.naturalWidth > 0)"),
                      "the preview's image loaded")
        shots = os.environ.get("SCREENSHOT_DIR")
        if shots:
            page.screenshot(os.path.join(shots, "preview-card-desktop.png"))
        messages = api(own.base_url, "GET", f"/rooms/{group}/messages?limit=10", token=bob["token"])["messages"]
        self.assertEqual([m["kind"] for m in messages], ["message", "preview"])
        self.assertEqual(messages[0]["preview"]["title"], "Autumn in Kyoto", "history brings the message with its preview")
        summary = next(room for room in api(own.base_url, "GET", "/rooms", token=bob["token"]) if room["id"] == group)
        self.assertEqual(summary["unreadCount"], 1, "the preview event is not unread")

        # act: the sender removes it from the message menu; the card goes when the server's event comes
        seq = self.seq_of(page, f"Look: {link}")
        self.choose_menu_item(page, seq, "removePreview")
        page.wait_for(lambda d: not page.find_all(card), "the card removed")
        messages = api(own.base_url, "GET", f"/rooms/{group}/messages?limit=10", token=bob["token"])["messages"]
        self.assertNotIn("preview", messages[0], "removed for everyone")
        self.assert_no_alerts(page)


if __name__ == "__main__":
    unittest.main()
