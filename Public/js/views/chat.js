// The chat screen: header (chatHeader.js), the pinned bar (pinnedBar.js), the message list (respectful autoscroll,
// older pages on scrolling up, day separators, the "Unread messages" divider and the jump back to it, read mark), the
// typing line and the composer; the message menu and selecting messages are messageActions.js. A message counts as
// read only once it has been on screen in a visible, focused page (seenTracker.js); a chat with unread messages opens
// at the first of them; each chat's scroll position is remembered while the page lives. A chat opened at a message (a
// search hit, a quote, a pin of the pinned bar) shows the page around it and pages both ways; it follows new messages
// again once it reaches the newest ("Back to latest").
import { el, icon, ICONS } from '../dom.js';
import { t } from '../strings.js';
import { dayKey } from '../time.js';
import { daySeparator, messageElement, pendingElement, recallLine, systemLine, unreadDivider, uploadElement } from './messageItem.js';
import { systemLineText } from './systemLines.js';
import { MessageActions } from './messageActions.js';
import { openMenusOn } from './contextMenu.js';
import { UnreadJump } from './unreadJump.js';
import { messageSummary, recallText } from './preview.js';
import { Composer } from './composer.js';
import { EmojiPicker } from './emojiPicker.js';
import { SeenTracker } from './seenTracker.js';
import { RovingList } from './rovingList.js';
import { RoomInfo } from './roomInfo.js';
import { ChatHeader } from './chatHeader.js';
import { HistorySearch } from './historySearch.js';
import { PinnedBar } from './pinnedBar.js';
import { acceptDroppedFiles } from './dropZone.js';
import { whomMentioned } from '../mentions.js';

// Within this many pixels of the end, the list counts as "at the bottom" and follows new messages.
const BOTTOM_SLACK_PX = 48;
// Older messages are requested when the top is this close, so they are usually there before the user is (newer ones,
// in a chat opened at a message, as close to the end).
const LOAD_OLDER_THRESHOLD_PX = 400;
const FAILED_LOAD_PAUSE_MS = 3_000;
const MAX_PAGES_TO_FIND_MESSAGE = 40;
// How long a message opened from a search hit stays outlined.
const HIGHLIGHT_MS = 4_000;
// The unread divider sits this far below the top of the list when a chat opens at it.
const DIVIDER_MARGIN_PX = 8;

/** Room id → where its list was scrolled when the chat was left ({anchor, atBottom, latestSeq}), while the page lives. */
const savedPositions = new Map();

export class ChatView {
  constructor(client, roomID, { imageViewer, focusSeq }) {
    this.client = client;
    this.store = client.store;
    this.roomID = roomID;
    this.imageViewer = imageViewer;
    this.focusSeq = focusSeq;
    this.renderedItems = new Map(); // key → {signature, node}
    this.lastItemKey = null;
    this.loadingOlder = false;
    this.olderFailedAt = 0;
    this.loadingNewer = false;
    this.newerFailedAt = 0;
    this.showedWindow = false; // the list showed a detached window (room.hasNewer) when last rendered
    this.unreadFrom = null; // the read position when the chat opened, if there was something unread
    this.landing = true; // until the chat has opened where it should (first unread, or where it was left)
    this.readPositionKnown = false; // nothing is read before the server's room list says where reading stopped
    this.emojiPicker = new EmojiPicker();
    this.composer = new Composer(client, roomID, {
      emojiPicker: this.emojiPicker,
      onSent: () => (this.room()?.hasNewer ? this.openLatest() : this.scrollToBottom()),
      lastOwnMessage: () => this.store.orderedMessages(this.roomID)
        .findLast((message) => message.sender?.id === this.store.me.id && !message.deleted && message.text) ?? null,
    });
    this.actions = new MessageActions(client, roomID, {
      emojiPicker: this.emojiPicker,
      composer: this.composer,
      nameOf: (person) => this.itemContext().nameOf(person),
      onSelectionChanged: () => this.selectionChanged(),
    });
    this.build();
    this.seen = new SeenTracker(this.scroller, (seq) => this.sawUpTo(seq));
    this.roving = new RovingList(this.itemsContainer, '.message', { onMenu: (item) => this.actions.openMenuFor(item) });
    openMenusOn(this.itemsContainer, '.message[data-seq]', (item, at) => this.actions.openMenuFor(item, at), { ownPress: '.reaction' });
    this.followResize = () => {
      if (this.stickToBottom) this.scrollToBottom();
    };
    this.resizeObserver = new ResizeObserver(this.followResize);
    this.resizeObserver.observe(this.scroller);
    window.visualViewport?.addEventListener('resize', this.followResize);
    this.unsubscribers = [
      this.store.on(`room:${roomID}`, () => this.renderMessages()),
      this.store.on(`typing:${roomID}`, () => this.renderTyping()),
      this.store.on('presence', () => this.header.render()),
      this.store.on('rooms', () => this.header.render()),
      this.store.on('connection', () => {
        this.header.render();
        this.renderMessages();
      }),
      this.store.on('live-message', () => this.announce(this.store.lastLiveMessage)),
      this.store.on('live-line', () => this.announceLine(this.store.lastLiveLine)),
      this.store.on('profiles', () => {
        this.renderMessages();
        this.renderTyping();
      }),
    ];
  }

  room() {
    return this.store.rooms.get(this.roomID);
  }

  build() {
    this.header = new ChatHeader(this.client, this.roomID, {
      onOpenInfo: () => this.infoPanel.open(this.header.infoButton),
      onSearch: () => this.historySearch.open(this.header.searchButton),
    });
    this.historySearch = new HistorySearch(this.client, this.roomID, { onOpen: (seq) => this.showMessage(seq) });
    this.pinnedBar = new PinnedBar(this.client, this.roomID, { onJump: (seq) => this.showMessage(seq) });

    this.historyNote = el('div', { className: 'history-note', role: 'status' });
    this.itemsContainer = el('div', { className: 'message-items' });
    this.scroller = el('div', {
      className: 'messages',
      id: 'messages',
      role: 'region',
      'aria-label': t('messagesLabel'),
      on: { scroll: () => this.scrolled() },
    }, this.historyNote, this.itemsContainer);
    this.newMessagesPill = el('button', {
      type: 'button',
      className: 'new-messages-pill',
      id: 'new-messages-pill',
      hidden: true,
      on: { click: () => this.scrollToBottom() },
    }, t('newMessages'), icon(ICONS.down, { size: 16 }));
    // Opened at a message: back to the newest messages, which the list shows again as they come.
    this.latestButton = el('button', {
      type: 'button',
      className: 'new-messages-pill',
      id: 'latest-button',
      hidden: true,
      on: { click: () => this.openLatest() },
    }, t('backToLatest'), icon(ICONS.down, { size: 16 }));
    this.unreadJump = new UnreadJump(this.scroller, () => this.jumpToFirstUnread());
    this.typingLine = el('div', { className: 'typing-line', id: 'typing-line', 'aria-live': 'polite' });
    // New messages are announced here, politely, one by one; older pages loading above are not.
    this.announcer = el('div', { className: 'visually-hidden', id: 'message-announcer', 'aria-live': 'polite' });
    this.infoPanel = new RoomInfo(this.client, this.roomID);

    this.element = el('div', { className: 'chat-view', dataset: { roomId: this.roomID } },
    this.header.element,
    this.pinnedBar.element,
    el('div', { className: 'messages-wrap' }, this.scroller, this.unreadJump.element, this.newMessagesPill, this.latestButton, this.historySearch.element),
    this.typingLine,
    this.composer.element,
    this.actions.selection.element,
    this.announcer,
    el('div', { className: 'drop-overlay', 'aria-hidden': 'true' }, el('span', { text: t('dropFile') })),
    this.actions.menu.element,
    this.actions.reportDialog.element,
    this.actions.forwardPicker.element,
    this.emojiPicker.element,
    this.infoPanel.element);
    acceptDroppedFiles(this.element, (files) => this.composer.sendFiles(files));
    // While selecting, a click anywhere on a message (its checkbox, a link, a quote) selects it and does nothing else.
    this.itemsContainer.addEventListener('click', (event) => {
      const item = this.actions.selection.active && event.target.closest('.message[data-seq]');
      if (!item) return;
      event.preventDefault();
      event.stopPropagation();
      this.actions.selection.toggle(Number(item.dataset.seq));
    }, true);
    this.element.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.actions.selection.active && !event.defaultPrevented) this.actions.selection.end();
    });
  }

  /** Called once the view is in the document (sizes are known). */
  async mounted() {
    this.client.setActiveRoom(this.roomID);
    // A page opened on a chat's address starts from the cached room list, which knows nothing of what arrived
    // while the page was closed: where reading stopped comes from the server's list.
    await this.client.roomListArrived();
    if (this.destroyed || !this.room()) return;
    this.readPositionKnown = true;
    const room = this.room();
    if (room.muted) this.client.refreshRooms(); // unmuted since? Only the summary would say
    // Back in a chat where nothing arrived since: where it was left. Otherwise at the first unread message.
    const left = savedPositions.get(this.roomID);
    const saved = left && left.latestSeq === room?.latestSeq ? left : null;
    this.unreadFrom = !saved && room.unreadCount > 0 && room.latestSeq > room.lastReadSeq ? room.lastReadSeq : null;
    this.unreadJump.start(this.unreadFrom === null ? 0 : room.unreadCount);
    this.header.render();
    this.pinnedBar.start();
    this.renderTyping();
    this.renderMessages();
    this.composer.resize();
    this.land(saved);
    if (window.matchMedia('(min-width: 768px)').matches) this.composer.focus();
    try {
      if (room.hasNewer && !this.focusSeq) await this.client.openLatest(this.roomID);
      else await this.client.loadNewest(this.roomID);
      // Opened at a message, the chat opens there (showMessage), not at the first unread one.
      if (this.unreadFrom !== null && !this.focusSeq) await this.loadBackTo(this.unreadFrom + 1);
    } catch {
      this.olderFailedAt = Date.now();
    }
    this.land(saved);
    this.landing = false;
    this.unreadJump.update(this.divider());
    this.maybeLoadOlder();
    if (this.focusSeq) this.showMessage(this.focusSeq);
  }

  /** The "Unread messages" divider, when it is in the list. */
  divider() {
    return this.itemsContainer.querySelector('.unread-divider');
  }

  /** Opens at the first unread message, else where the chat was left, else at the bottom. */
  land(saved) {
    const divider = this.divider();
    if (divider) {
      this.scroller.scrollTop = divider.offsetTop - DIVIDER_MARGIN_PX;
      this.stickToBottom = this.isAtBottom();
      this.seen.measureEnd(this.itemsContainer);
    } else if (this.unreadFrom === null && saved && !saved.atBottom && saved.anchor) {
      this.restoreAnchor(saved.anchor);
      this.stickToBottom = this.isAtBottom();
    } else if (this.unreadFrom === null || !this.landing) {
      this.scrollToBottom();
    }
  }

  /** Back to the first message that was unread when the chat opened, from wherever the list is. */
  async jumpToFirstUnread() {
    try {
      await this.loadBackTo(this.unreadFrom + 1);
    } catch {
      this.olderFailedAt = Date.now();
    }
    const divider = this.divider();
    if (divider) this.scroller.scrollTop = divider.offsetTop - DIVIDER_MARGIN_PX;
    this.stickToBottom = this.isAtBottom();
  }

  /** Pages back until `seq` is loaded (bounded), so the chat can open at it. */
  async loadBackTo(seq) {
    for (let page = 0; page < MAX_PAGES_TO_FIND_MESSAGE; page += 1) {
      const room = this.room();
      if (!room || !room.hasMore || (room.oldestLoadedSeq !== null && room.oldestLoadedSeq <= seq)) return;
      await this.client.loadOlder(this.roomID);
    }
  }

  destroy() {
    this.destroyed = true;
    const detached = this.room()?.hasNewer; // opened at a message: it opens at its newest messages again (mounted)
    savedPositions.set(this.roomID, {
      anchor: this.captureAnchor(),
      atBottom: detached || this.stickToBottom !== false,
      latestSeq: this.room()?.latestSeq ?? 0,
    });
    this.unsubscribers.forEach((unsubscribe) => unsubscribe());
    this.seen.destroy();
    this.resizeObserver.disconnect();
    window.visualViewport?.removeEventListener('resize', this.followResize);
    this.actions.menu.close();
    this.emojiPicker.close();
    this.composer.destroy();
    this.infoPanel.destroy();
    this.historySearch.destroy();
    this.pinnedBar.destroy();
    if (this.client.activeRoomID === this.roomID) this.client.setActiveRoom(null);
  }

  // MARK: typing, announcements

  renderTyping() {
    const room = this.room();
    for (const [userID, typing] of room?.typing ?? []) this.client.profile(userID, typing.name);
    const names = this.store.typingNames(this.roomID);
    this.typingLine.textContent = names.length ? t('typing', { name: names.join(', ') }) : '';
  }

  announce(live) {
    if (!live || live.room.id !== this.roomID) return;
    const { message } = live;
    const name = this.store.displayName(message.sender?.id, message.sender?.name ?? '');
    this.announcer.textContent = t('announceMessage', { name, text: messageSummary(message) });
  }

  /** A rename or a membership change is announced like a message: with the words of its line. */
  announceLine(live) {
    if (!live || live.room.id !== this.roomID) return;
    this.announcer.textContent = systemLineText(this.store, live.room, live.event);
  }

  // MARK: message list

  renderMessages() {
    const room = this.room();
    if (!room) return;
    // A page added below a chat opened at a message keeps the list where it is, as one added above does.
    const wasAtBottom = !this.landing && !this.showedWindow && this.isAtBottom();
    const anchor = wasAtBottom ? null : this.captureAnchor();
    const items = this.listItems(room);
    this.reconcile(items);
    this.roving.refresh();
    this.actions.menu.closeIfDetached();
    this.renderHistoryNote(room);

    const lastKey = items.at(-1)?.key ?? null;
    const somethingNewAtEnd = lastKey !== this.lastItemKey;
    this.lastItemKey = lastKey;
    if (wasAtBottom) {
      this.scrollToBottom();
    } else {
      if (anchor) this.restoreAnchor(anchor);
      if (somethingNewAtEnd && items.at(-1)?.fromOthers && !this.landing && !this.showedWindow) this.newMessagesPill.hidden = false;
    }
    this.showedWindow = room.hasNewer;
    this.latestButton.hidden = !room.hasNewer;
    if (room.hasNewer) this.newMessagesPill.hidden = true;
    this.seen.measureEnd(this.itemsContainer);
    this.maybeLoadOlder();
    this.maybeLoadNewer();
  }

  /** The newest message on screen was `seq`: read up to it (up to the room's end when it is the newest message). */
  sawUpTo(seq) {
    const room = this.room();
    if (!room || !this.readPositionKnown) return;
    const newestLoaded = this.store.orderedMessages(this.roomID).at(-1)?.seq ?? 0;
    this.client.markRead(this.roomID, seq >= newestLoaded && room.newestPageLoaded ? room.latestSeq : seq);
  }

  /** Everything the list shows, in order, each with a key and a signature that changes when it must be rebuilt. */
  listItems(room) {
    const items = [];
    const me = this.store.me.id;
    const messages = this.store.orderedMessages(this.roomID);
    const lastMine = messages.findLast((message) => message.sender?.id === me && !message.deleted);
    const showReadOn = room.kind === 'direct' && lastMine && room.peerReadSeq >= lastMine.seq ? lastMine.seq : null;
    let previousDay = null;
    let previousSender = null;
    let dividerPlaced = false;
    const addDay = (date) => {
      const day = dayKey(date);
      if (day === previousDay) return;
      previousDay = day;
      previousSender = null;
      items.push({ key: `day:${day}`, signature: `${day}`, build: () => daySeparator(date) });
    };
    const context = this.itemContext();
    const changesByTarget = this.client.pendingChangesByTarget(this.roomID);
    // Opened at a message, the lines that came live after the loaded ones wait for their page like messages do.
    const lines = this.store.orderedLines(this.roomID).filter((line) => !room.hasNewer || line.seq <= room.newestLoadedSeq);
    let nextLine = 0;
    // A rename or a membership change shows as a line of its own, centred, where it happened among the messages.
    const addLinesBefore = (seq) => {
      for (; nextLine < lines.length && lines[nextLine].seq < seq; nextLine += 1) {
        const line = lines[nextLine];
        addDay(line.date);
        previousSender = null;
        for (const person of [line.sender, line.member]) {
          if (person && person.id !== me) this.client.profile(person.id, person.name, person.via);
        }
        const text = systemLineText(this.store, room, line);
        if (text) items.push({ key: `line:${line.seq}`, signature: text, build: () => systemLine(line, text) });
      }
    };

    for (const message of messages) {
      addLinesBefore(message.seq);
      addDay(message.date);
      const mine = message.sender?.id === me;
      if (message.deleted) {
        previousSender = null;
        if (!mine) this.client.profile(message.sender?.id, message.sender?.name, message.sender?.via);
        const text = recallText(message, this.store.me, context.nameOf);
        items.push({ key: `seq:${message.seq}`, signature: `recall|${text}`, build: () => recallLine(message, text) });
        continue;
      }
      if (!dividerPlaced && this.unreadFrom !== null && !mine && message.seq > this.unreadFrom) {
        dividerPlaced = true;
        previousSender = null;
        items.push({ key: 'unread-divider', signature: '', build: unreadDivider });
      }
      const showSender = !mine && room.kind !== 'direct' && previousSender !== message.sender?.id;
      const showRead = message.seq === showReadOn;
      previousSender = message.sender?.id;
      const senderProfile = mine ? null : this.client.profile(message.sender?.id, message.sender?.name, message.sender?.via);
      // A forward names its first author ("Forwarded from Bob"): by display name once the profile is known.
      const { forwardedFrom } = message;
      const author = forwardedFrom && forwardedFrom.id !== me ? this.client.profile(forwardedFrom.id, forwardedFrom.name, forwardedFrom.via) : null;
      const changes = changesByTarget.get(message.seq) ?? [];
      const changesSignature = changes.map((entry) => `${entry.clientMsgID}:${entry.state}`).join(',');
      const mentioned = (message.mentions ?? []).map((id) => this.store.profiles.get(id)?.username ?? '').join(',');
      const reactors = (message.reactions ?? []).flatMap((reaction) => reaction.users.map((id) => this.store.displayName(id, ''))).join(',');
      const { selection } = this.actions;
      const selected = selection.active ? selection.has(message.seq) : null; // null: not selecting
      items.push({
        key: `seq:${message.seq}`,
        signature: `${message.rev}|${showSender}|${showRead}|${senderProfile?.displayName}|${senderProfile?.avatarColor}|${senderProfile?.avatarURL}|${senderProfile?.bot}|${author?.displayName}|${changesSignature}|${reactors}|${mentioned}|${selected}`,
        fromOthers: !mine,
        build: () => messageElement(message, { ...context, mine, showSender, showRead, senderProfile, changes, selected }),
      });
    }
    addLinesBefore(Infinity);
    for (const entry of this.client.pendingSends(this.roomID)) {
      addDay(entry.createdAt);
      items.push({ key: `pending:${entry.clientMsgID}`, signature: `${entry.state}|${context.online}`, build: () => pendingElement(entry, context) });
    }
    for (const upload of this.client.uploadsFor(this.roomID)) {
      addDay(upload.createdAt);
      items.push({ key: `upload:${upload.localID}`, signature: upload.state, build: () => uploadElement(upload, context) });
    }
    return items;
  }

  itemContext() {
    const me = this.store.me.id;
    return {
      me,
      online: this.store.connection === 'online',
      nameOf: (person) => (person?.id === me ? t('you') : this.store.displayName(person?.id, person?.name ?? '')),
      mentionsMe: (message) => this.store.mentionsMe(message),
      whomMentioned: (message, name) => whomMentioned(message, name, me, (id) => this.client.mentionedUsername(this.roomID, id)),
      reactorName: (userID) => (userID === me ? t('you') : this.store.displayName(userID, t('someone'))),
      attachmentURL: (id) => this.client.attachmentURL(id),
      onActions: (message, button) => this.actions.openFromButton(message, button),
      onReact: (message, emoji) => this.client.toggleReaction(this.roomID, message.seq, emoji),
      onOpenImage: (src, alt) => this.imageViewer.open(src, alt),
      onImageLoaded: () => {
        if (this.stickToBottom) this.scrollToBottom();
      },
      onJumpTo: (seq) => this.showMessage(seq),
      onRetry: (clientMsgID) => this.client.retry(clientMsgID),
      onDiscard: (clientMsgID) => this.client.discard(clientMsgID),
      onEditFailed: (entry) => {
        this.client.discard(entry.clientMsgID);
        this.composer.putBack(entry.frame.text ?? '');
      },
      onRetryUpload: (localID) => this.client.retryUpload(this.roomID, localID),
      onDiscardUpload: (localID) => this.client.discardUpload(this.roomID, localID),
    };
  }

  /** Puts the items' nodes in the container in order, reusing every node whose signature is unchanged. */
  reconcile(items) {
    const next = new Map();
    const nodes = items.map((item) => {
      const cached = this.renderedItems.get(item.key);
      const node = cached && cached.signature === item.signature ? cached.node : item.build();
      next.set(item.key, { signature: item.signature, node });
      return node;
    });
    const keep = new Set(nodes);
    for (const child of [...this.itemsContainer.children]) {
      if (keep.has(child)) continue;
      this.seen.unwatch(child);
      child.remove();
    }
    let cursor = this.itemsContainer.firstChild;
    for (const node of nodes) {
      if (node === cursor) {
        cursor = cursor.nextSibling;
      } else {
        this.itemsContainer.insertBefore(node, cursor);
        this.seen.watch(node);
      }
    }
    this.renderedItems = next;
  }

  renderHistoryNote(room) {
    if (this.loadingOlder) this.historyNote.textContent = t('loadingOlder');
    else if (!room.hasMore && (room.newestPageLoaded || room.hasNewer)) this.historyNote.textContent = t('beginningOfChat');
    else this.historyNote.textContent = '';
  }

  // MARK: scrolling

  isAtBottom() {
    const { scrollTop, scrollHeight, clientHeight } = this.scroller;
    return scrollHeight - scrollTop - clientHeight <= BOTTOM_SLACK_PX;
  }

  scrollToBottom() {
    this.scroller.scrollTop = this.scroller.scrollHeight;
    this.stickToBottom = true;
    this.newMessagesPill.hidden = true;
  }

  /**
   * The first message at least partly visible, and where it is: what must not move when items are added above.
   * It is remembered by key, as its node may be rebuilt (e.g. its sender's name moves to an older message).
   * Day separators are no anchors: when older messages of the same day arrive, their separator moves above them.
   */
  captureAnchor() {
    const top = this.scroller.getBoundingClientRect().top;
    for (const [key, { node }] of this.renderedItems) {
      if (key.startsWith('day:') || key === 'unread-divider') continue;
      // By its bottom edge: the bubble sits there, while the sender's name above it may come or go.
      const { bottom } = node.getBoundingClientRect();
      if (bottom > top) return { key, offset: bottom - top };
    }
    return null;
  }

  restoreAnchor({ key, offset }) {
    const node = this.renderedItems.get(key)?.node;
    if (!node) return;
    const top = this.scroller.getBoundingClientRect().top;
    this.scroller.scrollTop += node.getBoundingClientRect().bottom - top - offset;
  }

  scrolled() {
    this.stickToBottom = this.isAtBottom() && !this.room()?.hasNewer;
    if (this.stickToBottom) this.newMessagesPill.hidden = true;
    if (!this.landing) this.unreadJump.update(this.divider());
    this.actions.menu.close();
    this.maybeLoadOlder();
    this.maybeLoadNewer();
  }

  async maybeLoadOlder() {
    const room = this.room();
    if (!room || this.loadingOlder || !room.hasMore || !(room.newestPageLoaded || room.hasNewer)) return;
    if (this.scroller.scrollTop > LOAD_OLDER_THRESHOLD_PX) return;
    if (Date.now() - this.olderFailedAt < FAILED_LOAD_PAUSE_MS) return;
    this.loadingOlder = true;
    this.renderHistoryNote(room);
    try {
      await this.client.loadOlder(this.roomID);
    } catch {
      this.olderFailedAt = Date.now();
    } finally {
      this.loadingOlder = false;
    }
    this.renderHistoryNote(room);
    // The page may not have filled the screen, or the user may already be at the top again.
    requestAnimationFrame(() => this.maybeLoadOlder());
  }

  /** In a chat opened at a message, the page after the loaded ones when the end is close (§7 `after`). */
  async maybeLoadNewer() {
    const room = this.room();
    if (!room?.hasNewer || this.loadingNewer) return;
    const { scrollTop, scrollHeight, clientHeight } = this.scroller;
    if (scrollHeight - scrollTop - clientHeight > LOAD_OLDER_THRESHOLD_PX) return;
    if (Date.now() - this.newerFailedAt < FAILED_LOAD_PAUSE_MS) return;
    this.loadingNewer = true;
    try {
      await this.client.loadNewer(this.roomID);
    } catch {
      this.newerFailedAt = Date.now();
    } finally {
      this.loadingNewer = false;
    }
    requestAnimationFrame(() => this.maybeLoadNewer());
  }

  /** From a chat opened at a message to its newest messages, at the end of the list. */
  async openLatest() {
    try {
      await this.client.openLatest(this.roomID);
    } catch {
      return;
    }
    this.scrollToBottom();
    this.composer.focus();
  }

  /**
   * Brings a message into view (a search hit, a quote): when it is not loaded, the chat opens at it (the page around
   * it, §7). It is outlined and marked current for a moment, and focused.
   */
  async showMessage(seq) {
    const room = this.room();
    if (room && !room.messages.has(seq)) {
      try {
        await this.client.openAt(this.roomID, seq);
      } catch {
        return;
      }
    }
    const node = this.itemsContainer.querySelector(`[data-seq="${seq}"]`);
    if (!node) return;
    node.scrollIntoView({ block: 'center' });
    this.stickToBottom = this.isAtBottom() && !this.room()?.hasNewer;
    node.classList.add('highlighted');
    node.setAttribute('aria-current', 'true');
    this.roving.focusItem(node);
    setTimeout(() => {
      node.classList.remove('highlighted');
      node.removeAttribute('aria-current');
    }, HIGHLIGHT_MS);
  }

  // MARK: selecting messages

  selectionChanged() {
    const selecting = this.actions.selection.active;
    this.element.classList.toggle('selecting', selecting);
    this.composer.element.hidden = selecting;
    this.renderMessages();
    if (!selecting) this.composer.focus();
  }
}
