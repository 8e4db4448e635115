"""Notifications (issue 31): each chat's level (all, mentions, nothing) kept by the server and followed by in-page
notifications, a mute kept in this browser before carried over to the server once, push on this device turned on
and off from Me (and what it says when it cannot be), and a push message shown by the service worker, whose click
opens the chat."""

import json
import time

from harness import ApiError, DevTools, api, unique_name
from webcase import NOTIFICATION_RECORDER_JS, WebClientTestCase
from webcase import setUpModule  # noqa: F401 (it starts the server the test modules share)


NOTIFICATIONS_JS = """
const done = arguments[arguments.length - 1];
navigator.serviceWorker.ready.then((registration) => registration.getNotifications())
  .then((shown) => done(shown.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url }))))
  .catch((error) => done(String(error)));
"""
SERVICE_WORKER_STATE_JS = """
const done = arguments[arguments.length - 1];
navigator.serviceWorker.ready.then((registration) => done(registration.active && registration.active.state));
"""
PUSH_ENDPOINT_JS = """
const done = arguments[arguments.length - 1];
navigator.serviceWorker.ready.then((registration) => registration.pushManager.getSubscription())
  .then((subscription) => done(subscription ? subscription.endpoint : null));
"""
# The browser's push service, as this page sees it: headless Chromium's may never answer a subscription (it needs
# the network to reach its vendor), so the test gives the page one that subscribes at once, with a real P-256 key,
# and remembers the applicationServerKey it was given.
FAKE_PUSH_SERVICE_JS = """
const base64url = (bytes) => btoa(String.fromCharCode(...bytes)).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
window.__subscription = null;
PushManager.prototype.getSubscription = () => Promise.resolve(window.__subscription);
PushManager.prototype.subscribe = async (options) => {
  window.__subscribedWith = { userVisibleOnly: options.userVisibleOnly, key: base64url(new Uint8Array(options.applicationServerKey)) };
  const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
  const p256dh = base64url(new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey)));
  const endpoint = `https://push.example.com/send/${crypto.randomUUID()}`;
  window.__subscription = {
    endpoint,
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth: base64url(crypto.getRandomValues(new Uint8Array(16))) } }),
    unsubscribe: async () => { window.__subscription = null; return true; },
  };
  return window.__subscription;
};
"""
# What the service worker does on a real click of its notification (a click on the system's notification cannot be
# made from a test): the notificationclick event, with the notification it shows, dispatched in the worker.
CLICK_NOTIFICATION_JS = """
self.registration.getNotifications().then(([notification]) => {
  self.dispatchEvent(new NotificationEvent('notificationclick', { notification }));
  return notification.tag;
})
"""


class NotificationLevelTests(WebClientTestCase):
    def level(self, session, room_id):
        return next(r for r in api(self.base(), "GET", "/rooms", token=session["token"]) if r["id"] == room_id)["notifications"]

    def checked_level(self, page):
        return page.js("return document.querySelector('#notify-levels input:checked')?.value ?? null")

    def open_info(self, page):
        page.find("#room-info-button").click()
        page.wait_for(lambda d: page.find("#room-info").is_displayed(), "the chat info")

    def wait_until_online(self, page):
        """Connected (after the room list came): a message sent from now on is new to the page, and notifies."""
        page.wait_for(lambda d: page.find(".topbar .status-light").get_attribute("data-state") == "online", "connected")

    def test_gh31_a_chats_level_is_kept_by_the_server_and_decides_what_notifies(self):
        ann, bob = self.user("ann", "Ann Lee"), self.user("bob", "Bob Chen")
        room_id = api(self.base(), "POST", "/rooms", {"kind": "group", "name": unique_name("Lunch "),
                                                      "members": [ann["user"]["username"]]}, token=bob["token"])["id"]
        elsewhere = self.direct_room(bob, ann)
        page = self.signed_in(ann)
        page.js(NOTIFICATION_RECORDER_JS)
        page.go("#/me")
        page.click("#notify-desktop", "Desktop notifications")
        page.wait_for(lambda d: page.find("#notify-desktop").is_selected(), "notifications on")
        self.open_chat(page, room_id)
        self.open_info(page)
        self.assertEqual(self.checked_level(page), "all", "a group notifies of everything until I choose")
        self.assertEqual(page.find("#notify-levels legend").text, "Notifications")

        page.find("label[for=notify-level-mentions]").click()
        page.wait_for(lambda d: self.level(ann, room_id) == "mentions", "the level kept by the server")
        page.find("#room-info .dialog-close").click()
        page.go("#/chats")
        self.wait_until_online(page)
        talk = self.socket(bob)
        talk.send_message(room_id, "plain news")
        talk.send_message(room_id, f"@{ann['user']['username']} your turn")
        talk.send_message(elsewhere, "a direct message")
        page.wait_for(lambda d: page.js("return window.__notifications.length") >= 2, "two notifications")
        time.sleep(0.5)
        self.assertEqual([n["body"] for n in page.js("return window.__notifications")],
                         [f"Bob Chen: @{ann['user']['username']} your turn", "a direct message"],
                         "at Mentions only the mention notifies; the direct chat is still at All")
        self.assertEqual(page.find('link[rel="icon"]').get_attribute("data-count"), "2",
                         "the icon counts the mention and the direct message, not the plain news")
        self.assertIn("muted", page.find(f'.chat-item[data-room-id="{room_id}"] .badge').get_attribute("class"))

        # After a reload, and in another browser of the same account, the level is the server's.
        page.driver.refresh()
        self.open_chat(page, room_id)
        self.open_info(page)
        page.wait_for(lambda d: self.checked_level(page) == "mentions", "Mentions still chosen after a reload")
        other = self.signed_in(ann)
        self.open_chat(other, room_id)
        self.open_info(other)
        other.wait_for(lambda d: self.checked_level(other) == "mentions", "Mentions chosen in the other browser")

        # Nothing: marked in the header and the list, and nothing notifies, not even a mention.
        other.find("label[for=notify-level-none]").click()
        other.wait_for(lambda d: self.level(ann, room_id) == "none", "the level none kept by the server")
        other.wait_for(lambda d: other.find("#chat-pane .muted-mark").is_displayed(), "the chat marked as silent")
        page.driver.refresh()
        page.js(NOTIFICATION_RECORDER_JS)
        page.wait_for(lambda d: page.find_all(f'.chat-item[data-room-id="{room_id}"] .muted-mark'), "the list's mark")
        self.wait_until_online(page)
        talk.send_message(room_id, f"@{ann['user']['username']} still there?")
        talk.send_message(elsewhere, "after the mute")
        page.wait_for(lambda d: page.js("return window.__notifications.length") >= 1, "the direct message's notification")
        time.sleep(0.5)
        self.assertEqual([n["body"] for n in page.js("return window.__notifications")], ["after the mute"])
        self.assert_no_alerts(page, other)

    def test_gh31_a_mute_kept_in_this_browser_is_handed_to_the_server_once(self):
        ann, bob = self.user("ann"), self.user("bob")
        muted = self.direct_room(ann, bob)
        kept = self.channel(bob, unique_name("Kept "), [ann["user"]["username"]])["id"]
        gone = self.channel(bob, unique_name("Gone "), [ann["user"]["username"]])["id"]
        api(self.base(), "POST", f"/rooms/{gone}/leave", token=ann["token"])
        page = self.browser()
        page.open("#/chats")
        page.js("localStorage.setItem(arguments[0], JSON.stringify(arguments[1]))",
                f"swiftchat.muted.{ann['user']['id']}", [muted, gone])
        page.sign_in_with(ann)
        page.wait_for(lambda d: self.level(ann, muted) == "none", "the local mute set on the server")
        page.wait_for(lambda d: page.js("return localStorage.getItem(arguments[0])", f"swiftchat.muted.{ann['user']['id']}") is None,
                      "the local list forgotten (the chat I left included)")
        self.assertEqual(self.level(ann, kept), "mentions", "a chat that was not muted keeps its level")
        page.wait_for(lambda d: page.find_all(f'.chat-item[data-room-id="{muted}"] .muted-mark'), "the chat marked in the list")

        # Once only: unmuted on another device, it stays unmuted here after a reload.
        api(self.base(), "PUT", f"/rooms/{muted}/notifications", {"level": "all"}, token=ann["token"])
        page.driver.refresh()
        page.wait_for(lambda d: page.find_all(f'.chat-item[data-room-id="{muted}"]'), "the list after a reload")
        page.wait_for(lambda d: not page.find_all(f'.chat-item[data-room-id="{muted}"] .muted-mark'), "no mark any more")
        self.assertEqual(self.level(ann, muted), "all")


class PushTests(WebClientTestCase):
    def push_page(self, session):
        page = self.signed_in(session)
        page.wait_for(lambda d: page.driver.execute_async_script(SERVICE_WORKER_STATE_JS) == "activated", "the service worker")
        return page

    def grant_notifications(self, page):
        page.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": self.base(), "permissions": ["notifications"],
                                                                "browserContextId": page.context_id})

    def test_gh31_push_on_this_device_subscribes_and_unsubscribes_with_the_server(self):
        ann = self.user("ann")
        page = self.push_page(ann)
        self.grant_notifications(page)
        page.js(FAKE_PUSH_SERVICE_JS)
        page.go("#/me")
        push = page.wait_for(lambda d: page.find("#notify-push"), "the push switch")
        self.assertFalse(push.is_selected())
        self.assertEqual(push.accessible_name, "Notifications on this device")

        page.find("label[for=notify-push]").click()
        page.wait_for(lambda d: page.find("#notify-push").is_selected() and page.find("#notify-push").is_enabled(), "push on")
        self.assertEqual(page.find("#push-status").text, "")
        self.assertEqual(page.js("return window.__subscribedWith"),
                         {"userVisibleOnly": True, "key": api(self.base(), "GET", "/push/key", token=ann["token"])["publicKey"]},
                         "subscribed with the server's key")
        endpoint = page.js("return window.__subscription.endpoint")

        page.find("label[for=notify-push]").click()
        page.wait_for(lambda d: not page.find("#notify-push").is_selected() and page.find("#notify-push").is_enabled(), "push off")
        self.assertIsNone(page.js("return window.__subscription"), "the browser dropped it")
        with self.assertRaises(ApiError) as refused:
            api(self.base(), "DELETE", "/push/subscriptions", {"endpoint": endpoint}, token=ann["token"])
        self.assertEqual(refused.exception.status, 404, "the server forgot it")

        page.find("label[for=notify-push]").click()
        page.wait_for(lambda d: page.find("#notify-push").is_selected() and page.find("#notify-push").is_enabled(), "push on again")
        endpoint = page.js("return window.__subscription.endpoint")
        self.assertIsNone(api(self.base(), "DELETE", "/push/subscriptions", {"endpoint": endpoint}, token=ann["token"]),
                          "the server had it (204)")

    def test_gh31_push_says_why_when_it_cannot_be_turned_on(self):
        ann = self.user("ann")
        # Notifications not allowed (headless Chromium refuses the permission prompt).
        page = self.push_page(ann)
        page.go("#/me")
        page.wait_for(lambda d: page.find("#notify-push"), "the push switch")
        page.find("label[for=notify-push]").click()
        page.wait_for(lambda d: page.find("#push-status").text
                      == "The browser blocks notifications for this site. Allow them in its site settings.", "why: blocked")
        self.assertFalse(page.find("#notify-push").is_selected())

        # Allowed, but the browser's push service refuses the subscription.
        self.grant_notifications(page)
        page.js("PushManager.prototype.subscribe = () => Promise.reject("
                "new DOMException('Registration failed - push service not available', 'AbortError'))")
        page.find("label[for=notify-push]").click()
        page.wait_for(lambda d: page.find("#push-status").text == "The browser could not turn on push notifications "
                      "(Registration failed - push service not available).", "why: refused")
        self.assertFalse(page.find("#notify-push").is_selected())

        # A push service that never answers (headless Chromium's, without the network, may not): said after a while.
        page.js("PushManager.prototype.subscribe = () => new Promise(() => {})")
        # The page waits 20 s (webPush.js); here 2, which keeps the suite 18 s shorter.
        page.js("const wait = window.setTimeout;"
                "window.setTimeout = (callback, ms, ...rest) => wait(callback, ms === 20000 ? 2000 : ms, ...rest);")
        page.find("label[for=notify-push]").click()
        page.wait_for(lambda d: page.find("#push-status").text == "Turning on…", "what it is doing meanwhile")
        page.wait_for(lambda d: page.find("#push-status").text
                      == "The browser’s push service did not answer. Try again later.", "why: no answer")
        self.assertFalse(page.find("#notify-push").is_selected())

        # A browser without the Push API: the switch is off, disabled, and says so from the start.
        plain = self.browser()
        plain.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.PushManager;"})
        plain.sign_in_with(ann)
        plain.go("#/me")
        plain.wait_for(lambda d: plain.find("#push-status").text == "This browser cannot receive push notifications.", "why: unsupported")
        self.assertFalse(plain.find("#notify-push").is_enabled())
        self.assert_no_alerts(page, plain)

    def test_gh31_a_push_shows_one_notification_per_chat_and_its_click_opens_the_chat(self):
        ann, bob = self.user("ann"), self.user("bob")
        room_id = self.direct_room(bob, ann)
        seq = self.socket(bob).send_message(room_id, "are you there?")
        page = self.push_page(ann)
        self.grant_notifications(page)
        devtools = DevTools(page)
        self.addCleanup(devtools.close)
        session = devtools.attach("page", self.base())
        devtools.call("ServiceWorker.enable", session=session)
        registrations = devtools.event("ServiceWorker.workerRegistrationUpdated",
                                       lambda params: any(r["scopeURL"] == f"{self.base()}/" for r in params["registrations"]))
        registration = next(r for r in registrations["registrations"] if r["scopeURL"] == f"{self.base()}/")["registrationId"]

        def deliver(body, message_seq):
            payload = {"room": room_id, "seq": message_seq, "title": "bob", "body": body,
                       "url": f"{self.base()}/#/chat/{room_id}/{message_seq}"}
            devtools.call("ServiceWorker.deliverPushMessage",
                          {"origin": self.base(), "registrationId": registration, "data": json.dumps(payload)}, session=session)

        deliver("hello", seq - 1)
        page.wait_for(lambda d: len(page.driver.execute_async_script(NOTIFICATIONS_JS)) == 1, "the notification")
        deliver("are you there?", seq)
        page.wait_for(lambda d: page.driver.execute_async_script(NOTIFICATIONS_JS)[0]["body"] == "are you there?", "the newer one")
        self.assertEqual(page.driver.execute_async_script(NOTIFICATIONS_JS), [{
            "title": "bob", "body": "are you there?", "tag": f"room:{room_id}",
            "url": f"{self.base()}/#/chat/{room_id}/{seq}"}], "one notification per chat: the latest")

        worker = devtools.attach("service_worker", self.base())
        clicked = devtools.call("Runtime.evaluate", {"expression": CLICK_NOTIFICATION_JS, "awaitPromise": True}, session=worker)
        self.assertEqual(clicked["result"].get("value"), f"room:{room_id}")
        page.wait_for(lambda d: page.find_all(f'.chat-view[data-room-id="{room_id}"]'), "the chat opened by the click")
        self.assertTrue(page.driver.current_url.endswith(f"#/chat/{room_id}/{seq}"), page.driver.current_url)
        page.wait_for(lambda d: page.driver.execute_async_script(NOTIFICATIONS_JS) == [], "the notification closed")
