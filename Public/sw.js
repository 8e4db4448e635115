// The service worker: it keeps the app shell (this list) so the app opens even while the server cannot be reached.
// Every request for the shell goes to the network first, so a new version shows at once when the server is up;
// the cached copy answers only when the network fails. The API, the WebSocket and attachments are never touched.
// Tests/Web checks that this list names every file of the shell.
// It also shows Web Push messages (PROTOCOL.md §9.11) as notifications, one per chat, and opens the chat when one is
// clicked.

const CACHE = 'swiftchat-shell-v6';
const APP_ICON = '/icons/app.svg';
const SHELL = [
  '/',
  '/css/app.css',
  '/icons/app.svg',
  '/manifest.webmanifest',
  '/js/administration.js',
  '/js/api.js',
  '/js/avatar.js',
  '/js/client.js',
  '/js/clipboard.js',
  '/js/dom.js',
  '/js/drafts.js',
  '/js/emoji.js',
  '/js/forwarding.js',
  '/js/integrations.js',
  '/js/limits.js',
  '/js/linkify.js',
  '/js/main.js',
  '/js/markdown.js',
  '/js/mentions.js',
  '/js/moderation.js',
  '/js/myData.js',
  '/js/notifier.js',
  '/js/outbox.js',
  '/js/pendingReads.js',
  '/js/pinnedMessages.js',
  '/js/presenceText.js',
  '/js/router.js',
  '/js/session.js',
  '/js/socket.js',
  '/js/store.js',
  '/js/strings.js',
  '/js/strings.zh-Hant.js',
  '/js/theme.js',
  '/js/time.js',
  '/js/uploads.js',
  '/js/views/adminAudit.js',
  '/js/views/adminHome.js',
  '/js/views/adminInvites.js',
  '/js/views/adminList.js',
  '/js/views/adminReports.js',
  '/js/views/adminRooms.js',
  '/js/views/adminUser.js',
  '/js/views/adminUsers.js',
  '/js/views/auth.js',
  '/js/views/avatarCrop.js',
  '/js/views/avatarPicker.js',
  '/js/views/bansList.js',
  '/js/views/blockControl.js',
  '/js/views/botRow.js',
  '/js/views/bots.js',
  '/js/views/chat.js',
  '/js/views/chatHeader.js',
  '/js/views/chatItemMenu.js',
  '/js/views/chatList.js',
  '/js/views/composer.js',
  '/js/views/connectionBanner.js',
  '/js/views/connectionLight.js',
  '/js/views/contacts.js',
  '/js/views/contextMenu.js',
  '/js/views/copyField.js',
  '/js/views/discover.js',
  '/js/views/dropZone.js',
  '/js/views/emojiPicker.js',
  '/js/views/forwardPicker.js',
  '/js/views/historySearch.js',
  '/js/views/imageViewer.js',
  '/js/views/linkPreview.js',
  '/js/views/me.js',
  '/js/views/mePages.js',
  '/js/views/memberModeration.js',
  '/js/views/mentionSuggestions.js',
  '/js/views/mentionsList.js',
  '/js/views/messageActions.js',
  '/js/views/messageItem.js',
  '/js/views/messageMenu.js',
  '/js/views/messageSearch.js',
  '/js/views/messageSelection.js',
  '/js/views/myData.js',
  '/js/views/navRow.js',
  '/js/views/newChatMenu.js',
  '/js/views/peoplePicker.js',
  '/js/views/pinMessage.js',
  '/js/views/pinnedBar.js',
  '/js/views/preview.js',
  '/js/views/quickSwitcher.js',
  '/js/views/reportDialog.js',
  '/js/views/reportRow.js',
  '/js/views/resetPassword.js',
  '/js/views/roomInfo.js',
  '/js/views/roomIntegrations.js',
  '/js/views/roomMembers.js',
  '/js/views/roomReports.js',
  '/js/views/rovingList.js',
  '/js/views/secretOnce.js',
  '/js/views/seenTracker.js',
  '/js/views/shell.js',
  '/js/views/systemLines.js',
  '/js/views/toast.js',
  '/js/views/unreadJump.js',
  '/js/views/voicePlayer.js',
  '/js/views/voiceRecorder.js',
  '/js/webPush.js',
];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  const key = url.pathname === '/index.html' ? '/' : url.pathname;
  if (!SHELL.includes(key)) return;
  event.respondWith(fetch(request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(key, copy));
    }
    return response;
  }).catch(() => caches.match(key).then((cached) => cached ?? Response.error())));
});

// MARK: Web Push

// The server's payload: {room, seq, title, body, url}. The tag is the room's, so a chat shows only its latest message.
self.addEventListener('push', (event) => {
  let message = {};
  try {
    message = event.data?.json() ?? {};
  } catch {
    message = { body: event.data?.text() ?? '' };
  }
  const title = message.title || 'SwiftChat';
  event.waitUntil(self.registration.showNotification(title, {
    body: message.body ?? '',
    icon: APP_ICON,
    badge: APP_ICON,
    tag: message.room ? `room:${message.room}` : undefined,
    renotify: Boolean(message.room),
    data: { url: message.url || `${self.location.origin}/#/chats`, room: message.room ?? null, seq: message.seq ?? null },
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openChat(event.notification.data?.url));
});

/**
 * Shows the chat at `url` (…/#/chat/ROOM/SEQ) in an open SwiftChat window, which is told to go there and focused;
 * with none open, in a new one. A URL of another origin is not followed: the app's own chats list opens instead.
 */
async function openChat(url) {
  const target = new URL(url || '/#/chats', self.location.origin);
  const address = target.origin === self.location.origin ? target.href : `${self.location.origin}/#/chats`;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (!open) return self.clients.openWindow(address);
  open.postMessage({ type: 'open', hash: new URL(address).hash });
  return open.focus().catch(() => open);
}
