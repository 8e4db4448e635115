// The signed-in client: it ties the REST API, the WebSocket and the outbox to the store, and offers views the
// actions a user can take. Views never talk to the network themselves.
import { ChatSocket, Status } from './socket.js';
import { Outbox } from './outbox.js';
import { Store } from './store.js';
import { saveSession, userStorageKey } from './session.js';
import { PendingReads } from './pendingReads.js';
import { loadLimits, saveLimits } from './limits.js';
import { Notifier } from './notifier.js';
import { WebPush } from './webPush.js';
import { Uploads } from './uploads.js';
import { pageIsSeen } from './views/seenTracker.js';
import { Administration } from './administration.js';
import { MyData } from './myData.js';
import { Integrations } from './integrations.js';
import { Drafts } from './drafts.js';
import { Moderation, rankOf } from './moderation.js';
import { canPin, PinnedMessages } from './pinnedMessages.js';
import { forwardMessages } from './forwarding.js';

const TYPING_INTERVAL_MS = 2_000; // the server forwards at most one `typing` per user and room every 2 s (§9.4)
const HISTORY_PAGE = 50;
// After joining a room over REST we wait this long for the server's `joined` frame (§9.6) before asking to follow
// the room ourselves with `resume` (§8.2), so that a server doing either works.
const JOINED_FRAME_GRACE_MS = 1_500;
const ROOM_LIST_SAVE_DELAY_MS = 500;
// How long a chat opened at start-up waits for the server's room list (a server that does not answer at all).
const ROOM_LIST_WAIT_MS = 5_000;
// The socket's close code when an administrator deactivates (or deletes) the account (§8.6, §10.2).
const ACCOUNT_DISABLED_CLOSE = 4003;

export class ChatClient {
  constructor({ session, api, onSignedOut, onSessionChanged }) {
    this.session = session;
    this.api = api;
    this.onSignedOut = onSignedOut;
    this.onSessionChanged = onSessionChanged;
    this.store = new Store(session.user);
    this.activeRoomID = null;
    this.lastTypingSent = new Map(); // room id → time
    this.roomsAnnouncedByServer = new Set();
    this.historyRequests = new Map(); // room id → {generation, request} of the page being loaded
    this.uploads = new Uploads({
      upload: (file, durationMs) => this.api.upload(file, durationMs),
      onUploaded: (roomID, attachment) => this.outbox.add(
        { type: 'send', room: roomID, text: '', attachments: [attachment.id] }, { attachments: [attachment] }),
      onChange: (roomID) => this.store.emit(`room:${roomID}`),
      maxBytes: () => this.limits.maxUploadBytes,
    });
    this.profileRequests = new Set(); // user ids whose profile was asked for (found or not: a miss is not asked again)
    this.lastSeenRequests = new Set(); // user ids whose last-seen time was asked for on this connection
    this.limits = loadLimits();
    this.memberCounts = new Map(); // channel id → members, from the public list (§7)
    this.memberRequests = new Map(); // room id → its members, asked for once (see roomMembers)
    this.notifier = new Notifier(this.store, session.user.id);
    this.push = new WebPush(api);
    this.store.on('live-message', () => {
      const live = this.store.lastLiveMessage;
      this.notifier.notify(live, live?.room.id === this.activeRoomID && pageIsSeen());
    });
    // Someone joined or left a room (a line that names a member): its member count is asked for again.
    this.store.on('live-line', () => {
      const { room, event } = this.store.lastLiveLine;
      if (event.member) this.membersChanged(room.id);
    });
    this.expectPresenceSnapshot = true;
    this.roomListSettled = false;
    this.firstRoomList = new Promise((resolve) => {
      this.firstRoomListSettled = () => {
        this.roomListSettled = true;
        resolve();
      };
    });
    this.drafts = new Drafts({ api, store: this.store, storageKey: userStorageKey(session.user.id, 'drafts') });
    this.administration = new Administration(api);
    this.myData = new MyData(api);
    this.moderation = new Moderation(api);
    this.integrations = new Integrations(api);
    this.pinnedMessages = new PinnedMessages(api, this.store);
    // A password change or this account's deletion under way: the server revokes this device's token too, and closes
    // its socket, which then means nothing.
    this.revokingOwnTokens = false;
    this.pendingReads = new PendingReads(userStorageKey(session.user.id, 'reads'));

    this.outbox = new Outbox({
      storageKey: userStorageKey(session.user.id, 'outbox'),
      transmit: (frame) => this.socket.send(frame),
      onChange: (roomID) => {
        this.store.emit(`room:${roomID}`);
        this.store.emit('rooms');
      },
    });
    this.socket = new ChatSocket({
      getToken: () => this.session.token,
      prepareResume: (hello) => this.prepareResume(hello),
      onReady: () => this.connectionReady(),
      onFrame: (frame) => this.handleFrame(frame),
      onStatus: (status) => this.connectionChanged(status),
      onRetryScheduled: (at) => this.store.setNextRetry(at),
      onClosed: (code) => { if (code === ACCOUNT_DISABLED_CLOSE && !this.revokingOwnTokens) this.signOutDisabled(); },
      // A revoked or expired token cannot open the socket; asking over REST tells that apart from an outage.
      onConnectFailed: () => { if (!this.revokingOwnTokens) this.api.me().catch(() => {}); },
    });
  }

  get me() {
    return this.store.me;
  }

  async start() {
    this.restoreRoomList();
    this.store.on('rooms', () => this.scheduleRoomListSave());
    try {
      this.store.replaceRooms(await this.api.rooms());
      this.carryOverLocalMutes();
    } catch {
      // Offline: the cached list stands in; the socket retries, and its hello refreshes the list.
    }
    this.applyPendingReads();
    this.drafts.flush();
    this.firstRoomListSettled();
    this.socket.start();
  }

  /**
   * Resolves once the server's room list has been asked for at start-up (it came, or the server cannot be reached
   * and the cached list stands), or after ROOM_LIST_WAIT_MS: only then are unread counts and read positions current.
   */
  roomListArrived() {
    if (this.roomListSettled) return Promise.resolve();
    return Promise.race([this.firstRoomList, new Promise((resolve) => { setTimeout(resolve, ROOM_LIST_WAIT_MS); })]);
  }

  // MARK: the room list and the newest messages of each chat are cached, so a reload while the server is away
  // still shows chats, their messages and queued messages. Both are saved together, so the resume position kept in
  // the list is where the cached messages end: the replay after a reconnect brings every change since (§8.2).

  restoreRoomList() {
    try {
      const summaries = JSON.parse(localStorage.getItem(userStorageKey(this.me.id, 'rooms')));
      if (!Array.isArray(summaries)) return;
      this.store.replaceRooms(summaries);
      this.store.restoreMessages(JSON.parse(localStorage.getItem(userStorageKey(this.me.id, 'messages'))) ?? {});
    } catch {
      // no usable cache: start empty
    }
  }

  scheduleRoomListSave() {
    if (this.roomListSaveTimer) return;
    this.roomListSaveTimer = setTimeout(() => {
      this.roomListSaveTimer = null;
      try {
        localStorage.setItem(userStorageKey(this.me.id, 'rooms'), JSON.stringify(this.store.roomSummaries()));
        localStorage.setItem(userStorageKey(this.me.id, 'messages'), JSON.stringify(this.store.recentMessages()));
      } catch {
        // storage full: the server still has everything
      }
    }, ROOM_LIST_SAVE_DELAY_MS);
  }

  /**
   * Reads the server's version and limits (§9.7) on every connection: the server may have restarted with other
   * limits, and a message it refuses as too long is measured against the limit it has now.
   */
  async refreshConfig() {
    try {
      const config = await this.api.config();
      this.store.serverVersion = config.version ?? null;
      this.limits = saveLimits(config);
      this.store.emit('connection');
      this.store.emit('limits');
    } catch {
      // the version shows as unknown; the limits kept from last time stand
    }
  }

  stop() {
    this.socket.stop();
    clearTimeout(this.roomListSaveTimer);
  }

  async signOut() {
    this.stop();
    await this.push.disable().catch(() => {}); // this browser no longer notifies of the account's messages
    await this.api.logout().catch(() => {});
    this.forgetLocalData();
    this.onSignedOut();
  }

  /**
   * An administrator deactivated this account: signed out, with the reason for the sign-in screen. What is queued
   * stays, as for a revoked token: it goes out if the account is reactivated and signs in here again.
   */
  signOutDisabled() {
    this.stop();
    this.onSignedOut('account_disabled');
  }

  /** Deletes this account for good (§10.6), once its password is given, and signs out leaving nothing behind. */
  async deleteAccount(password) {
    this.revokingOwnTokens = true;
    try {
      await this.api.deleteMe(password);
    } finally {
      this.revokingOwnTokens = false;
    }
    this.stop();
    this.forgetLocalData();
    this.onSignedOut('account_deleted');
  }

  /**
   * Signing out on purpose leaves none of this account's chats, drafts or unsent messages in the browser. (A token
   * that expired or was revoked keeps them: signing in again sends what was queued.)
   */
  forgetLocalData() {
    this.outbox.stop();
    for (const name of ['rooms', 'messages', 'drafts', 'outbox', 'reads', 'muted', 'notify']) localStorage.removeItem(userStorageKey(this.me.id, name));
  }

  // MARK: connection

  async prepareResume(hello) {
    if (hello.user) this.updateMe(hello.user);
    this.expectPresenceSnapshot = true;
    this.roomsAnnouncedByServer.clear();
    try {
      this.store.replaceRooms(await this.api.rooms());
    } catch {
      // Resume what we know; rooms we do not list are followed from now on anyway (§8.2).
    }
    this.applyPendingReads();
    this.drafts.flush();
    return this.store.resumePositions();
  }

  connectionReady() {
    this.outbox.connectionReady();
    this.refreshConfig();
    // The open chat's pinned messages, if they could not be read before (the replay keeps a list that was read).
    const { activeRoomID } = this;
    if (activeRoomID && !this.pinnedMessages.loaded(activeRoomID)) this.pinnedMessages.load(activeRoomID).catch(() => {});
    for (const [roomID, seq] of this.pendingReads.entries()) this.socket.send({ type: 'read', room: roomID, seq });
  }

  connectionChanged(status) {
    if (status !== Status.ONLINE) this.outbox.connectionLost();
    else this.lastSeenRequests.clear();
    this.store.setConnection(status, this.socket.failedAttempts);
  }

  /** Skips the wait before the next connection attempt ("Retry now"). */
  reconnectNow() {
    this.socket.reconnectNow();
  }

  handleFrame(frame) {
    switch (frame.type) {
      case 'message':
        this.store.applyLiveEvent(frame, { live: true });
        this.pinnedMessages.apply(frame);
        // The message frame reaches its sender just before the ack and means the same thing: it is stored.
        if (frame.clientMsgID && frame.sender?.id === this.me.id) this.outbox.acknowledge(frame.clientMsgID);
        break;
      case 'ack': {
        const entry = this.outbox.acknowledge(frame.clientMsgID);
        if (entry?.frame.type === 'send') this.store.addAcknowledgedMessage(frame, entry);
        break;
      }
      case 'resumed':
        if (frame.complete === false) this.reloadRoom(frame.room, frame.latestSeq);
        break;
      case 'receipt':
        if (frame.user === this.me.id) this.pendingReads.settle(frame.room, frame.seq);
        this.store.applyReceipt(frame);
        break;
      case 'typing':
        this.store.applyTyping(frame);
        break;
      case 'presence':
        this.store.applyPresence(frame, { snapshot: this.expectPresenceSnapshot });
        this.expectPresenceSnapshot = false;
        break;
      case 'joined':
        this.roomsAnnouncedByServer.add(frame.room.id);
        this.store.upsertRoom(frame.room);
        this.membersChanged(frame.room.id);
        break;
      case 'left':
        this.store.removeRoom(frame.room);
        break;
      case 'error': {
        const entry = frame.ref ? this.outbox.find(frame.ref) : null;
        // Muted in that room (§8.6): the refusal says so, and the chat's composer shows it.
        if (entry && frame.reason === 'muted') this.store.setMuted(entry.frame.room, true);
        if (entry) this.outbox.reject(frame.ref, frame.reason === 'muted' ? 'muted' : frame.code);
        // A read the server already has (stale_read), or cannot take (bad_seq, forbidden): stop resending it.
        if (['stale_read', 'bad_seq', 'forbidden'].includes(frame.code)) this.pendingReads.drop(frame.ref);
        break;
      }
      default:
        break; // frame types a newer server may add
    }
  }

  /** Too much was missed to replay (§8.2 `complete: false`): drop what is loaded and page it in again. */
  reloadRoom(roomID, latestSeq) {
    const room = this.store.rooms.get(roomID);
    if (!room) return;
    this.store.dropLoaded(room);
    room.hasNewer = false;
    room.resumeSeq = Math.max(room.resumeSeq, latestSeq);
    room.latestSeq = Math.max(room.latestSeq, latestSeq);
    this.store.emit(`room:${roomID}`);
    if (this.activeRoomID === roomID) {
      this.loadNewest(roomID);
      this.pinnedMessages.load(roomID).catch(() => {}); // the replay that would have kept it current was cut short
    }
  }

  // MARK: history

  /** Loads the newest page of a room once (the live stream keeps it current afterwards). */
  loadNewest(roomID) {
    const room = this.store.rooms.get(roomID);
    if (!room || room.newestPageLoaded || room.hasNewer) return Promise.resolve();
    return this.loadPage(roomID, {}, true);
  }

  /** Opens a room's messages at `seq` (a search hit): the page around it, detached from the newest (store.detach). */
  async openAt(roomID, seq) {
    this.store.detach(roomID);
    const page = await this.loadPage(roomID, { around: seq }, false);
    if (page) await this.catchUp(roomID, page);
  }

  /** Back to the room's newest messages from a detached window. */
  async openLatest(roomID) {
    this.store.detach(roomID);
    const page = await this.loadPage(roomID, {}, false);
    if (page) await this.catchUp(roomID, page);
  }

  /** The page after the newest loaded message of a detached room (§7 `after`). Resolves false when there is none. */
  async loadNewer(roomID) {
    const room = this.store.rooms.get(roomID);
    if (!room?.hasNewer) return false;
    const page = await this.loadPage(roomID, { after: room.newestLoadedSeq }, false, { newer: true });
    if (page) await this.catchUp(roomID, page);
    return true;
  }

  /** A page that ended at the newest joins the live stream, after one more page if a live message came meanwhile. */
  async catchUp(roomID, page) {
    const room = this.store.rooms.get(roomID);
    if (page.hasNewer || this.store.reachedNewest(roomID, page) || !room) return;
    await this.loadNewer(roomID);
  }

  /** Loads the page before the oldest loaded message. Resolves false when there is nothing more. */
  async loadOlder(roomID) {
    const room = this.store.rooms.get(roomID);
    if (!room || !room.hasMore) return false;
    if (!room.newestPageLoaded && !room.hasNewer) {
      await this.loadNewest(roomID);
      return true;
    }
    // Just detached (openAt, openLatest), with nothing loaded yet: a page before nothing would be the newest one, and,
    // as the room's one request, it would stand in for the page the room is opened at.
    if (room.oldestLoadedSeq === null) return false;
    await this.loadPage(roomID, { before: room.oldestLoadedSeq }, false);
    return true;
  }

  /**
   * Loads a page at `position` ({before}, {after} or {around}, §7) and resolves with it, or with nothing when the room
   * was opened elsewhere (store.detach) meanwhile.
   */
  loadPage(roomID, position, newest, { newer = false } = {}) {
    const generation = this.store.rooms.get(roomID)?.generation;
    // One request per room at a time: scrolling fires far more often than pages arrive.
    const loading = this.historyRequests.get(roomID);
    if (loading?.generation === generation) return loading.request.then(() => null);
    const request = this.api.history(roomID, { ...position, limit: HISTORY_PAGE })
      .then((page) => {
        if (this.store.rooms.get(roomID)?.generation !== generation) return null;
        this.store.applyHistoryPage(roomID, page, { newest, newer });
        this.scheduleRoomListSave();
        return page;
      })
      .finally(() => {
        if (this.historyRequests.get(roomID)?.request === request) this.historyRequests.delete(roomID);
      });
    this.historyRequests.set(roomID, { generation, request });
    return request;
  }

  // MARK: reading and typing

  /**
   * The chat screen shows this room (null when none). What is read there is up to the view: what it saw. Opening a
   * chat I marked unread clears the mark (§7.5).
   */
  setActiveRoom(roomID) {
    this.activeRoomID = roomID;
    if (this.store.rooms.get(roomID)?.markedUnread) this.setMarkedUnread(roomID, false).catch(() => {});
  }

  /** I have seen the room up to `seq` (the view knows: it was on screen, in a visible, focused page). */
  markRead(roomID, seq) {
    const room = this.store.rooms.get(roomID);
    if (!room || seq <= room.lastReadSeq) return;
    this.pendingReads.record(roomID, seq);
    this.store.markReadLocally(roomID, seq);
    this.socket.send({ type: 'read', room: roomID, seq });
  }

  /** Read positions the server has not confirmed yet win over the room list it sent. */
  applyPendingReads() {
    for (const [roomID, seq] of this.pendingReads.entries()) this.store.applyPendingRead(roomID, seq);
  }

  userIsTyping(roomID) {
    const now = Date.now();
    if (now - (this.lastTypingSent.get(roomID) ?? 0) < TYPING_INTERVAL_MS) return;
    if (this.socket.send({ type: 'typing', room: roomID })) this.lastTypingSent.set(roomID, now);
  }

  // MARK: sending (through the outbox: nothing is lost, retries reuse the clientMsgID)

  sendText(roomID, text, replyTo = null) {
    const frame = { type: 'send', room: roomID, text };
    const meta = {};
    if (replyTo) {
      frame.replyTo = replyTo.seq;
      meta.replyTo = { seq: replyTo.seq, sender: replyTo.sender, text: replyTo.text.slice(0, 100) };
    }
    this.outbox.add(frame, meta);
  }

  editMessage(roomID, seq, text) {
    this.outbox.add({ type: 'edit', room: roomID, target: seq, text });
  }

  deleteMessage(roomID, seq) {
    this.outbox.add({ type: 'delete', room: roomID, target: seq });
  }

  toggleReaction(roomID, seq, emoji) {
    this.outbox.add({ type: 'react', room: roomID, target: seq, emoji });
  }

  /** Removes a message's link preview (mine only): the card goes when the `preview` event comes back (§9.1). */
  removePreview(roomID, seq) {
    return this.api.removePreview(roomID, seq);
  }

  retry(clientMsgID) {
    this.outbox.retry(clientMsgID);
  }

  discard(clientMsgID) {
    this.outbox.discard(clientMsgID);
  }

  /** Pending and failed sends of a room that are not on screen as real messages yet. */
  pendingSends(roomID) {
    const room = this.store.rooms.get(roomID);
    return this.outbox.entriesForRoom(roomID)
      .filter((entry) => entry.frame.type === 'send' && !room?.clientMsgIDs.has(entry.clientMsgID));
  }

  /** Pending and failed edits, deletes and reactions of a room, by the seq of the message each one changes. */
  pendingChangesByTarget(roomID) {
    const changes = new Map();
    for (const entry of this.outbox.entriesForRoom(roomID)) {
      if (entry.frame.type === 'send') continue;
      const target = entry.frame.target;
      if (!changes.has(target)) changes.set(target, []);
      changes.get(target).push(entry);
    }
    return changes;
  }

  /** Uploads an image or any other file (§9.3), then sends it as a message (see uploads.js). */
  sendFile(roomID, file) {
    return this.uploads.add(roomID, file);
  }

  /** Uploads a voice recording with its length (§9.3), then sends it as a message, as a file is sent. */
  sendVoice(roomID, recording, durationMs) {
    return this.uploads.add(roomID, recording, { durationMs });
  }

  // §6.5, §7.7 pictures: mine shows at once from the profile the server answers; a room's from its new address.
  async setMyPicture(image) { this.updateMe(await this.api.setAvatar(image)); }
  async removeMyPicture() { this.updateMe(await this.api.removeAvatar()); }
  async setRoomPicture(roomID, image) { this.store.setRoomPicture(roomID, (await this.api.setRoomAvatar(roomID, image)).avatarURL); }
  async removeRoomPicture(roomID) {
    await this.api.removeRoomAvatar(roomID);
    this.store.setRoomPicture(roomID, null);
  }

  retryUpload(roomID, localID) {
    this.uploads.retry(roomID, localID);
  }

  discardUpload(roomID, localID) {
    this.uploads.discard(roomID, localID);
  }

  uploadsFor(roomID) {
    return this.uploads.forRoom(roomID);
  }

  attachmentURL(id) {
    return this.api.attachmentURL(id);
  }

  // MARK: drafts (§7.5; drafts.js) and pinned chats

  draft(roomID) {
    return this.drafts.text(roomID);
  }

  saveDraft(roomID, text) {
    this.drafts.change(roomID, text);
  }

  flushDraft(roomID) {
    this.drafts.flushRoom(roomID);
  }

  /** Pins a chat to the top of my list, or unpins it, on every device of the account. */
  async setPinned(roomID, pinned) {
    await this.api.setPinned(roomID, pinned);
    this.store.setPinned(roomID, pinned);
  }

  /** Marks a chat unread in my list, or clears the mark, on every device of the account (§7.5). */
  async setMarkedUnread(roomID, marked) {
    await this.api.setMarkedUnread(roomID, marked);
    this.store.setMarkedUnread(roomID, marked);
  }

  /**
   * Forwards messages `seqs` of room `sourceID` to each room of `targetIDs` (§7.6); the copies come back as live
   * messages. Resolves with what failed: [{targetID, seq, error}].
   */
  forward(sourceID, seqs, targetIDs) {
    return forwardMessages(this.api, sourceID, seqs, targetIDs);
  }

  // MARK: pinned messages (pinnedMessages.js keeps each open chat's list)

  /** Whether I may pin messages in a room: anyone in a direct chat or a group; in a channel, its moderators. */
  mayPinIn(roomID) {
    const room = this.store.rooms.get(roomID);
    return Boolean(room) && canPin(room.kind, this.myRank(roomID));
  }

  /** Pins a message of a room, or unpins it; the `pin` event shows it in the chat and its pinned bar. */
  async setMessagePinned(roomID, seq, pinned) {
    try {
      await this.api.setMessagePinned(roomID, seq, pinned);
    } catch (error) {
      // Refused in a room I am in: a moderator muted me (§7.8), which the composer says from now on too.
      if (error.code === 'forbidden' && this.store.rooms.has(roomID)) {
        this.store.setMuted(roomID, true);
        error.reason ??= 'muted';
      }
      throw error;
    }
  }

  // MARK: contacts (§6.4)

  /** My contacts, [{user, added}], A–Z by display name; their profiles are remembered. */
  async contacts() {
    const { contacts } = await this.api.contacts();
    for (const { user } of contacts) this.store.profiles.set(user.id, user);
    return contacts.sort((a, b) => a.user.displayName.localeCompare(b.user.displayName, undefined, { sensitivity: 'base' }));
  }

  async addContact(username) {
    const contact = await this.api.addContact(username);
    this.store.emit('contacts');
    return contact;
  }

  async removeContact(userID) {
    await this.api.removeContact(userID);
    this.store.emit('contacts');
  }

  // MARK: rooms, people, profile

  /** Adds a room that REST just gave us and makes sure the socket follows it. */
  adoptRoom(summary) {
    const room = this.store.upsertRoom(summary);
    if (!this.roomsAnnouncedByServer.has(summary.id)) {
      setTimeout(() => {
        if (!this.roomsAnnouncedByServer.has(summary.id) && this.store.rooms.has(summary.id)) {
          this.socket.follow(summary.id, room.resumeSeq);
        }
      }, JOINED_FRAME_GRACE_MS);
    }
    return summary.id;
  }

  async openDirect(username) {
    return this.adoptRoom(await this.api.openDirect(username));
  }

  async joinChannel(roomID) {
    const id = this.adoptRoom(await this.api.joinRoom(roomID));
    this.refreshMemberCounts(); // a count read before joining (Discover's) is one short now
    return id;
  }

  /** Creates a channel (public) or a group (private, by invitation) with these members (usernames). */
  async createRoom(kind, name, members = []) {
    return this.adoptRoom(await this.api.createRoom(kind, name, members));
  }

  async invite(roomID, username) {
    await this.api.invite(roomID, username);
    this.membersChanged(roomID);
  }

  /** Someone joined or left a room (an invitation this page made, a membership event): its count is asked again. */
  membersChanged(roomID) {
    this.memberRequests.delete(roomID);
    if (this.memberCounts.has(roomID)) this.refreshMemberCounts();
  }

  /**
   * Renames a group, or a channel I created (§7). The answer is the summary under the new name; the `rename` event
   * that every member's connections receive shows the change in the chat.
   */
  async renameRoom(roomID, name) {
    this.store.upsertRoom(await this.api.renameRoom(roomID, name));
  }

  async leave(roomID) {
    await this.api.leaveRoom(roomID);
    this.store.removeRoom(roomID);
  }

  async publicChannels() {
    const channels = await this.api.publicRooms();
    for (const channel of channels) this.memberCounts.set(channel.id, channel.members);
    this.store.emit('rooms');
    return channels;
  }

  /** A channel's member count when known (the server lists members only for channels); asked for once. */
  memberCount(roomID) {
    const room = this.store.rooms.get(roomID);
    if (room?.kind !== 'channel') return null;
    this.memberCountsAsked ??= new Set();
    if (!this.memberCounts.has(roomID) && !this.memberCountsAsked.has(roomID)) {
      this.memberCountsAsked.add(roomID);
      this.refreshMemberCounts();
    }
    return this.memberCounts.get(roomID) ?? null;
  }

  refreshMemberCounts() {
    this.publicChannels().catch(() => {});
  }

  async users(query) {
    const users = await this.api.users(query);
    this.store.addProfiles(users);
    return users;
  }

  /**
   * A person's profile if known; otherwise null, and it is looked up once (views hear 'profiles' when it comes).
   * A sender the server marks as a tutorial client (`via`: no account) is not looked up at all. Otherwise the
   * lookup searches by the name the message carried, so a sender without an account is an empty result, not a
   * 404, and is remembered as such: it is never asked for again.
   */
  profile(userID, name, via = null) {
    const known = this.store.profiles.get(userID);
    if (known || !userID || !name || via || this.profileRequests.has(userID)) return known ?? null;
    this.profileRequests.add(userID);
    this.api.users(name)
      .then((profiles) => this.store.addProfiles(profiles.filter((profile) => profile.id === userID)))
      .catch(() => this.profileRequests.delete(userID)); // unreachable: asked again the next time it is needed
    return null;
  }

  /**
   * Looks up the profiles of the people named (`{id, name}`) that are not known yet, so a list about to show them
   * shows their display names; someone who cannot be found goes by their username.
   */
  async lookUpProfiles(people) {
    const unknown = new Map();
    for (const person of people) {
      if (person?.id && person.name && !person.via && !this.store.profiles.has(person.id)) unknown.set(person.id, person.name);
    }
    await Promise.all([...unknown].map(([id, name]) => this.api.users(name)
      .then((profiles) => this.store.addProfiles(profiles.filter((profile) => profile.id === id)))
      .catch(() => {})));
  }

  /** Asks once per connection when someone not online was last seen (presence frames only carry changes). */
  lookUpLastSeen(userID) {
    if (!userID || this.store.connection !== Status.ONLINE || this.lastSeenRequests.has(userID)) return;
    if (this.store.presence.get(userID)?.lastSeen || this.store.isOnline(userID)) return;
    this.lastSeenRequests.add(userID);
    this.api.user(userID)
      .then((details) => this.store.applyPresenceDetails(details))
      .catch(() => {});
  }

  /** A page of the messages that mention me, newest first: {messages, next} (§9.10). */
  async mentionsPage({ before, limit }) {
    const page = await this.api.mentions({ before, limit });
    await this.lookUpProfiles(page.messages.map((message) => message.sender));
    return page;
  }

  /** `options`: limit and the filters of api.search (§9.7). */
  searchMessages(query, options) {
    return this.api.search(query, options);
  }

  /** Asks the server for my profile again: whether I am an administrator may have changed since I signed in. */
  async refreshMe() {
    this.updateMe(await this.api.me());
  }

  async updateProfile(changes) {
    this.updateMe(await this.api.updateMe(changes));
  }

  /**
   * Asks for my rooms again: a moderator may have lifted a mute, which no event says (§7.3); the summary does.
   * Unreachable, the list stands as it is.
   */
  async refreshRooms() {
    try {
      this.store.replaceRooms(await this.api.rooms());
    } catch {
      // the next connection's room list brings it
    }
  }

  // MARK: notification levels (§9.10)

  /** Chooses what of a room notifies me, on every device of the account: all, mentions or none. */
  async setNotificationLevel(roomID, level) {
    this.store.upsertRoom(await this.api.setNotificationLevel(roomID, level));
  }

  /**
   * Chats muted in this browser before the server kept levels are set to `none` there, once: each is forgotten
   * here when the server has it (or when I am no longer in that chat); one that could not be sent is tried again at
   * the next start.
   */
  async carryOverLocalMutes() {
    for (const roomID of this.notifier.localMutes()) {
      try {
        if (this.store.rooms.has(roomID)) await this.setNotificationLevel(roomID, 'none');
        this.notifier.forgetLocalMute(roomID);
      } catch (error) {
        if (error.code === 'forbidden' || error.code === 'not_found') this.notifier.forgetLocalMute(roomID);
      }
    }
  }

  /** My rank in a room (§7.3): a server administrator outranks everyone, else my role there. */
  myRank(roomID) {
    return rankOf(this.store.rooms.get(roomID)?.role, this.me.admin === true);
  }

  /** The room's members, asked for once while nobody joins or leaves it (@ suggestions, mentions in bubbles). */
  roomMembers(roomID) {
    if (!this.memberRequests.has(roomID)) {
      this.memberRequests.set(roomID, this.members(roomID).catch((error) => {
        this.memberRequests.delete(roomID);
        throw error;
      }));
    }
    return this.memberRequests.get(roomID);
  }

  /** A mentioned member's username; unknown, the room's members are asked for (views hear 'profiles' then). */
  mentionedUsername(roomID, userID) {
    const username = this.store.profiles.get(userID)?.username;
    if (!username) this.roomMembers(roomID).catch(() => {});
    return username ?? null;
  }

  /** The room's members' profiles, by username (§7; members only). */
  async members(roomID) {
    const members = await this.api.members(roomID);
    this.store.addProfiles(members);
    return members;
  }

  /**
   * Changes my password. The server revokes every token of the account and closes their sockets (4001), this
   * device's too, and answers with a new session: it is kept where the session lives and the socket reconnects
   * with it, so this device stays signed in.
   */
  async changePassword(password, newPassword) {
    this.revokingOwnTokens = true;
    try {
      const session = await this.api.changePassword(password, newPassword);
      this.session = { ...session };
      saveSession(this.session);
      this.onSessionChanged?.(this.session);
      if (session.user) this.store.setMe(session.user);
      this.socket.reconnectWithNewToken();
    } finally {
      this.revokingOwnTokens = false;
    }
  }

  /** Whether signing out now would lose something: a message not sent yet, or a draft. */
  hasUnsentWork() {
    return this.outbox.entries.length > 0 || this.drafts.pending()
      || this.uploads.any();
  }

  updateMe(profile) {
    this.session = { ...this.session, user: profile };
    saveSession(this.session);
    this.store.setMe(profile);
  }
}
