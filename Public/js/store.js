// The client's state: my profile, my rooms with the messages loaded so far, presence, typing and the connection
// status. Views read it and subscribe to topics; only the client (client.js) changes it.
//
// Topics: 'rooms' (the list and its badges), `room:<id>` (that room's messages), `typing:<id>`, 'presence',
// 'connection', 'me', 'language', 'profiles', 'live-message' (a new message from someone else arrived live:
// `lastLiveMessage` holds it), 'live-line' (a rename, a membership change or a pin arrived live: `lastLiveLine`
// holds {room, event}), `pins:<id>` (that room's pinned messages: pinnedMessages.js),
// 'settings' (notifications, sound, theme), 'limits' (the server's limits were read again).

const TYPING_VISIBLE_MS = 5_000;
// What the offline cache keeps: the newest messages of the chats with the latest activity.
const CACHED_ROOMS = 30;
const CACHED_MESSAGES_PER_ROOM = 30;
// The events shown as a centred line of their own in the chat (§9.1): a rename, the membership changes, and a pin
// (which also changes its target: see CHANGES).
const LINE_KINDS = ['rename', 'joined', 'left', 'invited', 'removed', 'banned', 'role', 'pin'];

// How each change event (§9.1) changes the message it targets. An edit brings the message's new mentions (§9.10).
// A delete leaves a tombstone: no text, edit time, attachments, reactions, mentions or link preview, and unpins it.
const CHANGES = new Map([
  ['edit', (message, event) => {
    message.text = event.text;
    message.editedAt = event.date;
    setMentions(message, event);
  }],
  ['delete', (message, event) => {
    message.deleted = true;
    // Deleted by someone else than its author: a moderator removed it (§7.3).
    if (event.sender?.id && message.sender?.id && event.sender.id !== message.sender.id) message.removedByModerator = true;
    message.text = '';
    delete message.editedAt;
    delete message.attachments;
    delete message.reactions;
    delete message.preview;
    delete message.pinned;
    setMentions(message, {});
  }],
  ['reaction', (message, event) => toggleReaction(message, event.emoji, event.sender.id, event.added)],
  // A link preview the server made for the message's first link, or its removal (the event has no `preview` then).
  // A tombstone keeps none: a preview that arrives after the delete (it was fetched meanwhile) is not shown.
  ['preview', (message, event) => {
    if (event.preview && !message.deleted) message.preview = event.preview;
    else delete message.preview;
  }],
  // Pinned to the top of the room for everyone (§7.8), or unpinned; a tombstone stays unpinned.
  ['pin', (message, event) => {
    if (event.added !== false && !message.deleted) message.pinned = true;
    else delete message.pinned;
  }],
]);

/** The members a message mentions (`mentions`, `mentionsAll`: §9.10), as `source` has them now. */
function setMentions(message, source) {
  if (source.mentions?.length) message.mentions = source.mentions;
  else delete message.mentions;
  if (source.mentionsAll === true) message.mentionsAll = true;
  else delete message.mentionsAll;
}

// What notifies me in a room until I choose (§9.10): everything in direct rooms and groups, mentions in channels.
const DEFAULT_LEVELS = { direct: 'all', group: 'all', channel: 'mentions' };
export const NOTIFICATION_LEVELS = ['all', 'mentions', 'none'];

function newRoom(summary) {
  return {
    id: summary.id,
    kind: summary.kind,
    name: summary.name,
    peer: summary.peer ?? null,
    avatarURL: summary.avatarURL ?? null, // a channel's or group's picture (§7.7)
    lastMessage: summary.lastMessage ?? null,
    latestSeq: summary.latestSeq ?? 0,
    lastReadSeq: summary.lastReadSeq ?? 0,
    unreadCount: summary.unreadCount ?? 0,
    mentionCount: summary.mentionCount ?? 0, // unread messages that mention me (§9.10)
    notifications: levelOf(summary), // what of this room notifies me: all, mentions or none (§9.10)
    nameSeq: summary.latestSeq ?? 0, // the seq up to which `name` is known to be current (a summary's, or a rename's)
    role: summary.role ?? null, // mine in a channel or group (§7.3): owner, moderator or member
    roleSeq: summary.latestSeq ?? 0, // the seq up to which `role` is known to be current (a summary's, or a role event's)
    muted: summary.muted === true, // a moderator muted me here (§7.3)
    pinned: summary.pinned === true, // I pinned it to the top of my list (§7.5)
    markedUnread: summary.markedUnread === true, // I marked it unread (§7.5): the list shows a dot until I open it
    draft: summary.draft ?? null, // the text I left unsent here, as the server keeps it (§7.5; see drafts.js)
    // seq → message (only `message` events; edits, deletes and reactions are applied to them). Each message's
    // `stateSeq` is the newest seq its state includes: a change is applied only when it is newer (§9.1).
    messages: new Map(),
    lines: new Map(), // seq → a rename or membership event loaded (a line in the chat; the newest rename names the room)
    clientMsgIDs: new Set(), // clientMsgIDs of loaded messages, so a pending copy is never shown beside its original
    resumeSeq: summary.latestSeq ?? 0, // the last seq of the live stream handled: where a resume continues from
    newestPageLoaded: false,
    oldestLoadedSeq: null,
    hasMore: true,
    // Opened at a message (§7 `around`): the loaded messages end before the room's newest, up to `newestLoadedSeq`,
    // and live messages are counted but not added to them until paging down reaches the newest (see client.js).
    hasNewer: false,
    newestLoadedSeq: 0,
    generation: 0, // counts detach(): a page asked for before it is not applied
    peerReadSeq: summary.peerLastReadSeq ?? 0, // direct rooms: how far the other member has read
    typing: new Map(), // user id → {name, timer}
  };
}

function levelOf(summary) {
  return NOTIFICATION_LEVELS.includes(summary.notifications) ? summary.notifications : DEFAULT_LEVELS[summary.kind] ?? 'all';
}

export class Store {
  constructor(me) {
    this.me = me;
    this.rooms = new Map();
    this.presence = new Map(); // user id → {online, lastSeen}
    this.profiles = new Map([[me.id, me]]); // user id → profile (frames name senders by username only)
    this.connection = 'connecting';
    this.failedAttempts = 0; // connection attempts failed in a row
    this.nextRetryAt = null; // when the next attempt starts (ms), while offline
    this.serverVersion = null;
    this.lastLiveMessage = null;
    this.lastLiveLine = null;
    this.listeners = new Map();
  }

  on(topic, listener) {
    if (!this.listeners.has(topic)) this.listeners.set(topic, new Set());
    this.listeners.get(topic).add(listener);
    return () => this.listeners.get(topic)?.delete(listener);
  }

  emit(topic) {
    for (const listener of [...(this.listeners.get(topic) ?? [])]) listener();
  }

  // MARK: rooms

  /** Rooms, pinned ones first (§7.5), then most recent activity first; rooms without messages last, by name. */
  sortedRooms() {
    return [...this.rooms.values()].sort((a, b) => {
      const aDate = a.lastMessage?.date ?? 0;
      const bDate = b.lastMessage?.date ?? 0;
      return Number(b.pinned) - Number(a.pinned) || bDate - aDate || a.name.localeCompare(b.name);
    });
  }

  /** I pinned or unpinned a room (the server took it). */
  setPinned(roomID, pinned) {
    const room = this.rooms.get(roomID);
    if (!room || room.pinned === pinned) return;
    room.pinned = pinned;
    this.emit('rooms');
  }

  /** I marked a room unread or cleared the mark (the server took it). */
  setMarkedUnread(roomID, marked) {
    const room = this.rooms.get(roomID);
    if (!room || room.markedUnread === marked) return;
    room.markedUnread = marked;
    this.emit('rooms');
  }

  /** The server has this draft of mine for a room now (null: none). */
  setDraft(roomID, draft) {
    const room = this.rooms.get(roomID);
    if (!room || room.draft === draft) return;
    room.draft = draft;
    this.emit('rooms');
  }

  totalUnread() {
    let total = 0;
    for (const room of this.rooms.values()) total += room.unreadCount;
    return total;
  }

  /** Adds a room or refreshes one from a summary (§7). Our resume position is kept: the replay fills the rest. */
  upsertRoom(summary) {
    if (summary.peer) this.profiles.set(summary.peer.id, summary.peer);
    const existing = this.rooms.get(summary.id);
    if (!existing) {
      this.rooms.set(summary.id, newRoom(summary));
    } else {
      // A direct room whose other member left it (I blocked them: §10.7) comes without its peer and with an empty
      // name (§7); it keeps the person it was with, so it is still theirs in the list and can be unblocked.
      const peerLeft = summary.kind === 'direct' && !summary.peer && existing.peer;
      // A summary's name is the name at its latestSeq: a rename seen since (live or in a history page) is newer.
      if ((summary.latestSeq ?? 0) >= existing.nameSeq && !peerLeft) {
        existing.name = summary.name;
        existing.nameSeq = summary.latestSeq ?? 0;
      }
      existing.kind = summary.kind;
      existing.avatarURL = summary.avatarURL ?? null;
      if ((summary.latestSeq ?? 0) >= existing.roleSeq) {
        existing.role = summary.role ?? null;
        existing.roleSeq = summary.latestSeq ?? 0;
      }
      existing.muted = summary.muted === true;
      existing.pinned = summary.pinned === true;
      existing.markedUnread = summary.markedUnread === true;
      existing.draft = summary.draft ?? null;
      existing.notifications = levelOf(summary);
      if (!peerLeft) existing.peer = summary.peer ?? null;
      this.advancePeerRead(existing, summary.peerLastReadSeq ?? 0);
      if ((summary.latestSeq ?? 0) >= existing.latestSeq) {
        existing.latestSeq = summary.latestSeq ?? 0;
        existing.lastReadSeq = Math.max(existing.lastReadSeq, summary.lastReadSeq ?? 0);
        existing.unreadCount = summary.unreadCount ?? 0;
        existing.mentionCount = summary.mentionCount ?? 0;
        if (summary.lastMessage) existing.lastMessage = summary.lastMessage;
      }
    }
    this.emit('rooms');
    return this.rooms.get(summary.id);
  }

  /** A channel's or group's picture changed (§7.7): its new address, or null for none. */
  setRoomPicture(roomID, avatarURL) {
    const room = this.rooms.get(roomID);
    if (!room) return;
    room.avatarURL = avatarURL ?? null;
    this.emit('rooms');
  }

  /** Moves the other member's read position forward (never back: a cached or older summary may lag behind). */
  advancePeerRead(room, seq) {
    if (seq <= room.peerReadSeq) return;
    room.peerReadSeq = seq;
    this.emit(`room:${room.id}`);
  }

  /** Replaces the room list with the server's (rooms I left meanwhile disappear). */
  replaceRooms(summaries) {
    const ids = new Set(summaries.map((summary) => summary.id));
    for (const id of [...this.rooms.keys()]) if (!ids.has(id)) this.rooms.delete(id);
    for (const summary of summaries) this.upsertRoom(summary);
    this.emit('rooms');
  }

  removeRoom(roomID) {
    if (!this.rooms.delete(roomID)) return;
    this.emit('rooms');
    this.emit(`room:${roomID}`);
  }

  /** The rooms as summaries (§7), for the cache. The resume position goes in as `latestSeq`: replay fills the rest. */
  roomSummaries() {
    return [...this.rooms.values()].map((room) => ({
      id: room.id,
      kind: room.kind,
      name: room.name,
      peer: room.peer,
      lastMessage: room.lastMessage && { ...room.lastMessage, rev: undefined },
      latestSeq: room.resumeSeq,
      lastReadSeq: room.lastReadSeq,
      unreadCount: room.unreadCount,
      mentionCount: room.mentionCount,
      notifications: room.notifications,
      peerLastReadSeq: room.peerReadSeq,
      ...(room.role ? { role: room.role } : {}),
      ...(room.muted ? { muted: true } : {}),
      ...(room.pinned ? { pinned: true } : {}),
      ...(room.markedUnread ? { markedUnread: true } : {}),
      ...(room.draft ? { draft: room.draft } : {}),
    }));
  }

  /**
   * {roomID: [its newest messages (with their `stateSeq`), and the lines among them]} for the offline cache, taken
   * with roomSummaries() (see client.js).
   */
  recentMessages() {
    const cache = {};
    for (const room of this.sortedRooms().slice(0, CACHED_ROOMS)) {
      if (room.messages.size === 0 || room.hasNewer) continue; // only the newest messages are a cache
      const messages = this.orderedMessages(room.id).slice(-CACHED_MESSAGES_PER_ROOM).map(({ rev, ...message }) => message);
      const lines = this.orderedLines(room.id).filter((line) => line.seq > messages[0].seq);
      cache[room.id] = [...messages, ...lines].sort((a, b) => a.seq - b.seq);
    }
    return cache;
  }

  /** Puts cached messages back (before the server is reached); history and the replay complete them. */
  restoreMessages(cache) {
    for (const [roomID, messages] of Object.entries(cache)) {
      const room = this.rooms.get(roomID);
      if (!room || !Array.isArray(messages)) continue;
      for (const message of messages) {
        if (!Number.isInteger(message?.seq) || message.seq > room.resumeSeq) continue;
        if (LINE_KINDS.includes(message.kind)) room.lines.set(message.seq, message);
        else if (!room.messages.has(message.seq)) this.addMessage(room, message, message.stateSeq ?? message.seq);
      }
      this.emit(`room:${roomID}`);
    }
  }

  /** {roomID: last seq handled} for a `resume` frame. */
  resumePositions() {
    const positions = {};
    for (const room of this.rooms.values()) positions[room.id] = room.resumeSeq;
    return positions;
  }

  // MARK: events (§9.1)

  /**
   * Applies a `message` frame from the live stream or a replay: new messages are added, edits, deletes and
   * reactions change their target (see foldChange), a rename names the room anew and a membership change may change
   * my role (both show as a line in the chat).
   * Frames already handled (by seq) change nothing. Only messages are unread, notified and the room's last message.
   */
  applyLiveEvent(event, { live = false } = {}) {
    const room = this.rooms.get(event.room);
    if (!room) return;
    const kind = event.kind ?? 'message';
    const isNewToRoom = event.seq > room.latestSeq;
    room.resumeSeq = Math.max(room.resumeSeq, event.seq);
    room.latestSeq = Math.max(room.latestSeq, event.seq);
    // Seen already (e.g. through its ack, or a history page that raced the live stream).
    if (kind === 'message' && room.messages.has(event.seq)) {
      this.replaceStandIn(room, event);
      return;
    }

    switch (kind) {
      case 'message':
        this.addMessage(room, event);
        if (isNewToRoom && event.sender?.id !== this.me.id) {
          room.unreadCount += 1;
          if (this.mentionsMe(event)) room.mentionCount += 1;
          if (live) this.lastLiveMessage = { room, message: room.messages.get(event.seq) ?? room.lastMessage };
        }
        this.stopTyping(room, event.sender?.id);
        break;
      default:
        if (LINE_KINDS.includes(kind)) {
          if (live && !room.lines.has(event.seq)) this.lastLiveLine = { room, event };
          this.addLine(room, event);
        }
        this.foldChange(room, event); // an unknown kind changes nothing, but still counts its seq (done above)
        break;
    }
    this.emit('rooms');
    this.emit(`room:${room.id}`);
    if (this.lastLiveMessage) {
      this.emit('live-message');
      this.lastLiveMessage = null;
    }
    if (this.lastLiveLine) {
      this.emit('live-line');
      this.lastLiveLine = null;
    }
  }

  /**
   * Applies a history page (§7, §8.4). Its messages are in their state when the page was read, which includes every
   * event in the page, so they are added with the page's newest seq as their `stateSeq`: the page's edits, deletes
   * and reactions then change only messages loaded earlier in an older state (an old edit never undoes the newer
   * text a message was loaded with). Its renames and membership changes are shown; a rename names the room only if
   * it is newer than what the room's name already reflects.
   */
  applyHistoryPage(roomID, page, { newest, newer = false }) {
    const room = this.rooms.get(roomID);
    if (!room) return;
    const name = room.name;
    const pageSeq = page.messages.reduce((seq, event) => Math.max(seq, event.seq), 0);
    if (room.hasNewer) room.newestLoadedSeq = Math.max(room.newestLoadedSeq, pageSeq);
    for (const event of page.messages) {
      const kind = event.kind ?? 'message';
      if (kind === 'message') {
        if (!room.messages.has(event.seq)) this.addMessage(room, event, pageSeq);
      } else {
        if (LINE_KINDS.includes(kind)) this.addLine(room, event);
        this.foldChange(room, event);
      }
    }
    const firstSeq = page.messages[0]?.seq;
    if (firstSeq !== undefined && (room.oldestLoadedSeq === null || firstSeq < room.oldestLoadedSeq)) {
      room.oldestLoadedSeq = firstSeq;
      room.hasMore = page.hasMore;
    } else if (page.messages.length === 0 && !newer) {
      room.hasMore = false;
    }
    if (newest) room.newestPageLoaded = true;
    if (room.name !== name) this.emit('rooms');
    this.emit(`room:${room.id}`);
  }

  /**
   * Keeps a rename, a membership change or a pin to show in the chat. A rename names the room when it is newer than
   * the name the room has: an older rename met again (in a history page, a replay) never brings an older name back. A
   * `role` event newer than what the room's role reflects changes mine when it names me, or a new owner when I was it.
   */
  addLine(room, event) {
    if (event.kind === 'rename' && typeof event.text !== 'string') return;
    if (event.kind === 'pin' && !Number.isInteger(event.target)) return;
    if (event.kind !== 'rename' && event.kind !== 'pin' && !event.member?.id) return;
    const { kind, seq, id, sender, member, text, date, target, added } = event;
    room.lines.set(seq, { room: room.id, kind, seq, id, sender, member, text, date, target, added });
    if (kind === 'rename' && seq > room.nameSeq) {
      room.name = text;
      room.nameSeq = seq;
    }
    if (kind === 'role' && seq > room.roleSeq) {
      // A new owner: the previous one (maybe me) is a moderator now, which no event of its own says (§7.3).
      const mine = member.id === this.me.id ? text : text === 'owner' && room.role === 'owner' ? 'moderator' : room.role;
      room.roleSeq = seq;
      if (mine !== room.role) {
        room.role = mine;
        this.emit('rooms');
      }
    }
  }

  /** Renames, membership changes and pins loaded for a room, in seq order. */
  orderedLines(roomID) {
    const room = this.rooms.get(roomID);
    if (!room) return [];
    return [...room.lines.values()].sort((a, b) => a.seq - b.seq);
  }

  /** A moderator muted me in a room: a send was refused for it (§8.6), or a summary says so. */
  setMuted(roomID, muted) {
    const room = this.rooms.get(roomID);
    if (!room || room.muted === muted) return;
    room.muted = muted;
    this.emit('rooms');
    this.emit(`room:${roomID}`);
  }

  /** A message we sent was acknowledged before its `message` frame reached us: show it from what we sent. */
  addAcknowledgedMessage(ack, entry) {
    const room = this.rooms.get(ack.room);
    if (!room || room.messages.has(ack.seq)) return;
    this.addMessage(room, {
      room: ack.room,
      seq: ack.seq,
      id: ack.id,
      date: ack.date,
      clientMsgID: ack.clientMsgID,
      sender: { id: this.me.id, name: this.me.displayName },
      text: entry.frame.text ?? '',
      attachments: entry.meta.attachments,
      replyTo: entry.meta.replyTo,
    });
    room.messages.get(ack.seq).standIn = true;
    this.emit('rooms');
    this.emit(`room:${room.id}`);
  }

  /**
   * The server's own frame of a message shown from its ack (a stand-in made of what we sent): it has what only the
   * server knows (mentions, a link preview it already had), so it takes the stand-in's place unless a later change
   * was folded into the stand-in meanwhile.
   */
  replaceStandIn(room, event) {
    const standIn = room.messages.get(event.seq);
    if (!standIn.standIn || standIn.stateSeq > event.seq) return;
    const message = { ...event, rev: standIn.rev + 1, stateSeq: event.seq };
    room.messages.set(event.seq, message);
    if (room.lastMessage?.seq === event.seq) room.lastMessage = message;
    this.emit(`room:${room.id}`);
  }

  /**
   * Opens a room's messages at another position: what is loaded is dropped, and until `reachedNewest` the pages loaded
   * are a window that ends before the room's newest message (live messages only count, see addMessage).
   */
  detach(roomID) {
    const room = this.rooms.get(roomID);
    if (!room) return;
    this.dropLoaded(room);
    room.hasNewer = true;
    room.newestLoadedSeq = 0;
    room.generation += 1;
    this.emit(`room:${roomID}`);
  }

  /** Forgets a room's loaded messages and lines, so its pages load again (detach, or a resume too far behind). */
  dropLoaded(room) {
    room.messages.clear();
    room.lines.clear();
    room.clientMsgIDs.clear();
    room.oldestLoadedSeq = null;
    room.hasMore = true;
    room.newestPageLoaded = false;
  }

  /**
   * After a page of a detached room: when it ends at the newest and nothing newer has arrived live meanwhile (a live
   * message the page missed means one more page), the loaded messages are the room's newest again and follow the live
   * stream. Returns whether they do.
   */
  reachedNewest(roomID, page) {
    const room = this.rooms.get(roomID);
    if (!room?.hasNewer || page.hasNewer || room.latestSeq > room.newestLoadedSeq) return !room?.hasNewer;
    room.hasNewer = false;
    room.newestPageLoaded = true;
    this.emit(`room:${roomID}`);
    return true;
  }

  /** Adds a message whose state includes every event up to `stateSeq` (its own seq when it arrived live). */
  addMessage(room, message, stateSeq = message.seq) {
    const copy = { ...message, rev: 0, stateSeq };
    if (room.hasNewer && message.seq > room.newestLoadedSeq) { // past the window: a page down will bring it
      if (!room.lastMessage || message.seq >= room.lastMessage.seq) room.lastMessage = copy;
      return;
    }
    room.messages.set(message.seq, copy);
    if (message.clientMsgID) room.clientMsgIDs.add(message.clientMsgID);
    if (!room.lastMessage || message.seq >= room.lastMessage.seq) room.lastMessage = copy;
    if (room.oldestLoadedSeq === null) room.oldestLoadedSeq = message.seq;
  }

  /**
   * Folds an edit, delete, reaction, link preview or pin (§9.1) into the loaded message it targets and into the room's last message
   * (which may be a summary's copy), each only if its state is older than the event; the event's seq is then its
   * `stateSeq`. So an event met again (a replay, a page) changes nothing, and one whose target is not loaded is
   * ignored: history brings the target in its current state. Other kinds change nothing.
   */
  foldChange(room, event) {
    const change = CHANGES.get(event.kind);
    if (!change) return;
    const apply = (message) => {
      if (event.seq <= (message.stateSeq ?? 0)) return false;
      change(message, event);
      message.stateSeq = event.seq;
      return true;
    };
    const message = room.messages.get(event.target);
    if (message && apply(message)) message.rev += 1;
    if (room.lastMessage && room.lastMessage.seq === event.target && room.lastMessage !== message) apply(room.lastMessage);
    if (event.kind === 'delete') forgetQuotesOf(room, event.target);
  }

  /** Messages of a room in seq order. */
  orderedMessages(roomID) {
    const room = this.rooms.get(roomID);
    if (!room) return [];
    return [...room.messages.values()].sort((a, b) => a.seq - b.seq);
  }

  // MARK: read state (§8.5)

  /** Records locally that I read the room up to `seq` (the client sends the `read` frame). */
  markReadLocally(roomID, seq) {
    const room = this.rooms.get(roomID);
    if (!room || seq <= room.lastReadSeq) return false;
    room.lastReadSeq = seq;
    // Detached, the messages after the window are not loaded to be counted: the counts stay until the end is read.
    room.unreadCount = seq >= room.latestSeq ? 0 : room.hasNewer ? room.unreadCount : Math.min(room.unreadCount, this.unreadAfter(room, seq));
    room.mentionCount = seq >= room.latestSeq ? 0 : room.hasNewer ? room.mentionCount : Math.min(room.mentionCount, this.unreadAfter(room, seq, (message) => this.mentionsMe(message)));
    this.emit('rooms');
    return true;
  }

  /** Loaded messages from others after `seq` that are not deleted (and pass `filter`). */
  unreadAfter(room, seq, filter = () => true) {
    let count = 0;
    for (const message of room.messages.values()) {
      if (message.seq > seq && message.sender?.id !== this.me.id && !message.deleted && filter(message)) count += 1;
    }
    return count;
  }

  /** Whether a message mentions me: by name, or with @all (§9.10). */
  mentionsMe(message) {
    return message.mentionsAll === true || (message.mentions ?? []).includes(this.me.id);
  }

  /** A read position this device sent that the server has not confirmed yet (see pendingReads.js). */
  applyPendingRead(roomID, seq) {
    const room = this.rooms.get(roomID);
    if (!room) return;
    room.lastReadSeq = Math.max(room.lastReadSeq, seq);
    if (seq >= room.latestSeq && (room.unreadCount !== 0 || room.mentionCount !== 0)) {
      room.unreadCount = 0;
      room.mentionCount = 0;
      this.emit('rooms');
    }
  }

  applyReceipt(receipt) {
    const room = this.rooms.get(receipt.room);
    if (!room) return;
    if (receipt.user === this.me.id) {
      // One of my devices (maybe this one) read up to seq.
      if (receipt.seq > room.lastReadSeq) {
        room.lastReadSeq = receipt.seq;
        room.unreadCount = Math.min(room.unreadCount, this.unreadAfter(room, receipt.seq));
        room.mentionCount = Math.min(room.mentionCount, this.unreadAfter(room, receipt.seq, (message) => this.mentionsMe(message)));
        this.emit('rooms');
      }
    } else {
      this.advancePeerRead(room, receipt.seq);
    }
  }

  // MARK: typing (§9.4)

  applyTyping(frame) {
    const room = this.rooms.get(frame.room);
    if (!room || !frame.user || frame.user.id === this.me.id) return;
    clearTimeout(room.typing.get(frame.user.id)?.timer);
    const timer = setTimeout(() => this.stopTyping(room, frame.user.id), TYPING_VISIBLE_MS);
    room.typing.set(frame.user.id, { name: frame.user.name, timer });
    this.emit(`typing:${room.id}`);
  }

  stopTyping(room, userID) {
    const typing = room.typing.get(userID);
    if (!typing) return;
    clearTimeout(typing.timer);
    room.typing.delete(userID);
    this.emit(`typing:${room.id}`);
  }

  typingNames(roomID) {
    const room = this.rooms.get(roomID);
    return room ? [...room.typing.entries()].map(([userID, typing]) => this.displayName(userID, typing.name)) : [];
  }

  // MARK: presence (§9.5), connection, profile

  applyPresence(frame, { snapshot }) {
    if (snapshot) for (const state of this.presence.values()) state.online = false;
    for (const user of frame.users ?? []) {
      this.presence.set(user.id, { online: user.online ?? true, lastSeen: user.lastSeen ?? null });
    }
    this.emit('presence');
  }

  /** What the profile lookup (§6.3 GET /users/{id}) said about someone's presence. */
  applyPresenceDetails(details) {
    const known = this.presence.get(details.id);
    if (known?.online && !details.online) return; // a live frame knows better
    this.presence.set(details.id, { online: details.online === true, lastSeen: details.lastSeen ?? known?.lastSeen ?? null });
    this.emit('presence');
  }

  /**
   * Someone's presence as far as it is known: null while disconnected (nobody can tell then), otherwise
   * {online, lastSeen} (lastSeen null when never seen or not known yet).
   */
  presenceOf(userID) {
    if (this.connection !== 'online') return null;
    return this.presence.get(userID) ?? { online: false, lastSeen: null };
  }

  isOnline(userID) {
    return this.connection === 'online' && this.presence.get(userID)?.online === true;
  }

  setConnection(status, failedAttempts = 0) {
    this.connection = status;
    this.failedAttempts = failedAttempts;
    if (status !== 'offline') this.nextRetryAt = null;
    this.emit('connection');
  }

  setNextRetry(at) {
    this.nextRetryAt = at;
    this.emit('connection');
  }

  setMe(profile) {
    this.me = profile;
    this.profiles.set(profile.id, profile);
    this.emit('me');
  }

  /** Remembers profiles (from Contacts, a lookup, a room's peer), so people show with their display names. */
  addProfiles(profiles) {
    for (const profile of profiles) this.profiles.set(profile.id, profile);
    this.emit('profiles');
  }

  /** A person's display name when their profile is known, otherwise the name the frame carried (the username). */
  displayName(userID, fallback) {
    return this.profiles.get(userID)?.displayName ?? fallback;
  }
}

/** A recalled message's words leave the replies that quote it too, as the server's copies of them do (§9.2). */
function forgetQuotesOf(room, seq) {
  for (const message of room.messages.values()) {
    if (message.replyTo?.seq !== seq || !message.replyTo.text) continue;
    message.replyTo = { ...message.replyTo, text: '' };
    message.rev += 1;
  }
}

function toggleReaction(message, emoji, userID, added) {
  const reactions = message.reactions ?? [];
  let reaction = reactions.find((candidate) => candidate.emoji === emoji);
  if (added) {
    if (!reaction) {
      reaction = { emoji, users: [] };
      reactions.push(reaction);
    }
    if (!reaction.users.includes(userID)) reaction.users.push(userID);
  } else if (reaction) {
    reaction.users = reaction.users.filter((id) => id !== userID);
  }
  message.reactions = reactions.filter((candidate) => candidate.users.length > 0);
}
