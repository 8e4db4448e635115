// The chat screen: header, the message list (respectful autoscroll, older pages on scrolling up, day separators,
// read mark), the typing line and the composer (reply, edit, images by picker, drag-and-drop or paste).
import { el, icon, ICONS, replaceChildren } from '../dom.js';
import { t } from '../strings.js';
import { avatarElement, roomAvatar } from '../avatar.js';
import { dayKey, formatLastSeen } from '../time.js';
import { connectionLight } from './connectionLight.js';
import { daySeparator, messageElement, pendingElement, uploadElement } from './messageItem.js';
import { MessageMenu } from './messageMenu.js';
import { messageSummary } from './preview.js';

// Within this many pixels of the end, the list counts as "at the bottom" and follows new messages.
const BOTTOM_SLACK_PX = 48;
// Older messages are requested when the top is this close, so they are usually there before the user is.
const LOAD_OLDER_THRESHOLD_PX = 400;
const FAILED_LOAD_PAUSE_MS = 3_000;
const MAX_PAGES_TO_FIND_MESSAGE = 40;
const COMPOSER_MAX_HEIGHT_PX = 160;

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
    this.replyTo = null;
    this.editing = null;
    this.dragDepth = 0;
    this.menu = new MessageMenu({
      onReact: (message, emoji) => this.client.toggleReaction(this.roomID, message.seq, emoji),
      onReply: (message) => this.startReply(message),
      onEdit: (message) => this.startEdit(message),
      onDelete: (message) => this.deleteMessage(message),
    });
    this.build();
    this.unsubscribers = [
      this.store.on(`room:${roomID}`, () => this.renderMessages()),
      this.store.on(`typing:${roomID}`, () => this.renderTyping()),
      this.store.on('presence', () => this.renderHeader()),
      this.store.on('rooms', () => this.renderHeader()),
      this.store.on('profiles', () => {
        this.renderMessages();
        this.renderTyping();
      }),
    ];
    this.handleVisibility = () => this.client.markRead(this.roomID);
    document.addEventListener('visibilitychange', this.handleVisibility);
    window.addEventListener('focus', this.handleVisibility);
  }

  room() {
    return this.store.rooms.get(this.roomID);
  }

  build() {
    this.headerTitle = el('h2', { className: 'chat-title', id: 'chat-title' });
    this.headerSubtitle = el('p', { className: 'chat-subtitle', id: 'chat-subtitle' });
    this.headerAvatar = el('span', { className: 'chat-header-avatar' });
    const header = el('header', { className: 'chat-header' },
      el('a', { className: 'back-button icon-button', href: '#/chats', 'aria-label': t('back') }, icon(ICONS.back)),
      this.headerAvatar,
      el('div', { className: 'chat-header-text' }, this.headerTitle, this.headerSubtitle),
      connectionLight(this.store));

    this.historyNote = el('div', { className: 'history-note', role: 'status' });
    this.itemsContainer = el('div', { className: 'message-items' });
    this.scroller = el('div', {
      className: 'messages',
      id: 'messages',
      role: 'log',
      tabindex: '0',
      on: { scroll: () => this.scrolled() },
    }, this.historyNote, this.itemsContainer);
    this.newMessagesPill = el('button', {
      type: 'button',
      className: 'new-messages-pill',
      id: 'new-messages-pill',
      hidden: true,
      on: { click: () => this.scrollToBottom() },
    }, t('newMessages'), icon(ICONS.down, { size: 16 }));
    this.typingLine = el('div', { className: 'typing-line', id: 'typing-line', 'aria-live': 'polite' });

    this.element = el('div', {
      className: 'chat-view',
      dataset: { roomId: this.roomID },
      on: {
        dragenter: (event) => this.dragEntered(event),
        dragover: (event) => this.dragOver(event),
        dragleave: () => this.dragLeft(),
        drop: (event) => this.dropped(event),
      },
    },
    header,
    el('div', { className: 'messages-wrap' }, this.scroller, this.newMessagesPill),
    this.typingLine,
    this.buildComposer(),
    el('div', { className: 'drop-overlay', 'aria-hidden': 'true' }, el('span', { text: t('dropImage') })),
    this.menu.element);
  }

  buildComposer() {
    this.contextBar = el('div', { className: 'composer-context', hidden: true });
    this.fileInput = el('input', {
      type: 'file',
      accept: 'image/*',
      multiple: true,
      className: 'visually-hidden',
      tabindex: '-1',
      'aria-hidden': 'true',
      on: { change: () => this.filesPicked() },
    });
    this.textarea = el('textarea', {
      className: 'composer-input',
      id: 'composer-input',
      rows: '1',
      placeholder: t('messagePlaceholder'),
      'aria-label': t('messagePlaceholder'),
      on: {
        keydown: (event) => this.composerKeyDown(event),
        input: () => this.composerInput(),
        paste: (event) => this.pasted(event),
      },
    });
    this.textarea.value = this.client.draft(this.roomID);
    return el('form', { className: 'composer', id: 'composer', on: { submit: (event) => this.submit(event) } },
      this.contextBar,
      el('div', { className: 'composer-row' },
        el('button', {
          type: 'button',
          className: 'icon-button attach-button',
          id: 'attach-image',
          'aria-label': t('attachImage'),
          on: { click: () => this.fileInput.click() },
        }, icon(ICONS.image)),
        this.fileInput,
        this.textarea,
        el('button', { type: 'submit', className: 'icon-button send-button', id: 'send-button', 'aria-label': t('send') }, icon(ICONS.send))));
  }

  /** Called once the view is in the document (sizes are known). */
  async mounted() {
    this.client.setActiveRoom(this.roomID);
    this.renderHeader();
    this.renderTyping();
    this.renderMessages();
    this.resizeComposer();
    this.scrollToBottom();
    if (window.matchMedia('(min-width: 768px)').matches) this.textarea.focus();
    try {
      await this.client.loadNewest(this.roomID);
    } catch {
      this.olderFailedAt = Date.now();
    }
    this.maybeLoadOlder();
    if (this.focusSeq) this.showMessage(this.focusSeq);
  }

  destroy() {
    this.unsubscribers.forEach((unsubscribe) => unsubscribe());
    document.removeEventListener('visibilitychange', this.handleVisibility);
    window.removeEventListener('focus', this.handleVisibility);
    this.menu.close();
    if (this.client.activeRoomID === this.roomID) this.client.setActiveRoom(null);
  }

  // MARK: header and typing

  renderHeader() {
    const room = this.room();
    if (!room) return;
    this.headerTitle.textContent = room.name;
    replaceChildren(this.headerAvatar, avatarElement(roomAvatar(room), { size: 'small' }));
    let subtitle = room.kind === 'group' ? t('group') : t('channel');
    if (room.kind === 'direct' && room.peer) {
      const presence = this.store.presence.get(room.peer.id);
      if (presence?.online) subtitle = t('online');
      else if (presence?.lastSeen) subtitle = t('lastSeen', { time: formatLastSeen(presence.lastSeen) });
      else subtitle = t('offline');
    }
    this.headerSubtitle.textContent = subtitle;
  }

  renderTyping() {
    const names = this.store.typingNames(this.roomID);
    this.typingLine.textContent = names.length ? t('typing', { name: names.join(', ') }) : '';
  }

  // MARK: message list

  renderMessages() {
    const room = this.room();
    if (!room) return;
    const wasAtBottom = this.isAtBottom();
    const anchor = wasAtBottom ? null : this.captureAnchor();
    const items = this.listItems(room);
    this.reconcile(items);
    this.menu.closeIfDetached();
    this.renderHistoryNote(room);

    const lastKey = items.at(-1)?.key ?? null;
    const somethingNewAtEnd = lastKey !== this.lastItemKey;
    this.lastItemKey = lastKey;
    if (wasAtBottom) {
      this.scrollToBottom();
    } else {
      if (anchor) this.restoreAnchor(anchor);
      if (somethingNewAtEnd && items.at(-1)?.fromOthers) this.newMessagesPill.hidden = false;
    }
    this.client.markRead(this.roomID);
    this.maybeLoadOlder();
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
    const addDay = (date) => {
      const day = dayKey(date);
      if (day === previousDay) return;
      previousDay = day;
      previousSender = null;
      items.push({ key: `day:${day}`, signature: `${day}`, build: () => daySeparator(date) });
    };
    const context = this.itemContext();
    const changesByTarget = this.client.pendingChangesByTarget(this.roomID);

    for (const message of messages) {
      addDay(message.date);
      const mine = message.sender?.id === me;
      const showSender = !mine && room.kind !== 'direct' && previousSender !== message.sender?.id;
      const showRead = message.seq === showReadOn;
      previousSender = message.sender?.id;
      const senderProfile = mine ? null : this.client.profile(message.sender?.id);
      const changes = changesByTarget.get(message.seq) ?? [];
      const changesSignature = changes.map((entry) => `${entry.clientMsgID}:${entry.state}`).join(',');
      items.push({
        key: `seq:${message.seq}`,
        signature: `${message.rev}|${showSender}|${showRead}|${senderProfile?.displayName}|${senderProfile?.avatarColor}|${changesSignature}`,
        fromOthers: !mine,
        build: () => messageElement(message, { ...context, mine, showSender, showRead, senderProfile, changes }),
      });
    }
    for (const entry of this.client.pendingSends(this.roomID)) {
      addDay(entry.createdAt);
      items.push({ key: `pending:${entry.clientMsgID}`, signature: entry.state, build: () => pendingElement(entry, context) });
    }
    for (const upload of this.client.uploadsFor(this.roomID)) {
      addDay(upload.createdAt);
      items.push({ key: `upload:${upload.localID}`, signature: upload.state, build: () => uploadElement(upload, context) });
    }
    return items;
  }

  itemContext() {
    return {
      me: this.store.me.id,
      nameOf: (person) => this.store.displayName(person?.id, person?.name ?? ''),
      attachmentURL: (id) => this.client.attachmentURL(id),
      onActions: (message, button) => this.menu.open(message, button, message.sender?.id === this.store.me.id),
      onReact: (message, emoji) => this.client.toggleReaction(this.roomID, message.seq, emoji),
      onOpenImage: (src, alt) => this.imageViewer.open(src, alt),
      onImageLoaded: () => {
        if (this.stickToBottom) this.scrollToBottom();
      },
      onRetry: (clientMsgID) => this.client.retry(clientMsgID),
      onDiscard: (clientMsgID) => this.client.discard(clientMsgID),
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
    for (const child of [...this.itemsContainer.children]) if (!keep.has(child)) child.remove();
    let cursor = this.itemsContainer.firstChild;
    for (const node of nodes) {
      if (node === cursor) cursor = cursor.nextSibling;
      else this.itemsContainer.insertBefore(node, cursor);
    }
    this.renderedItems = next;
  }

  renderHistoryNote(room) {
    if (this.loadingOlder) this.historyNote.textContent = t('loadingOlder');
    else if (!room.hasMore && room.newestPageLoaded) this.historyNote.textContent = t('beginningOfChat');
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
      if (key.startsWith('day:')) continue;
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
    this.stickToBottom = this.isAtBottom();
    if (this.stickToBottom) this.newMessagesPill.hidden = true;
    this.menu.close();
    this.maybeLoadOlder();
  }

  async maybeLoadOlder() {
    const room = this.room();
    if (!room || this.loadingOlder || !room.hasMore || !room.newestPageLoaded) return;
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

  /** Brings a message into view (from a search result), paging back until it is loaded. */
  async showMessage(seq) {
    for (let page = 0; page < MAX_PAGES_TO_FIND_MESSAGE; page += 1) {
      const room = this.room();
      if (!room || room.messages.has(seq) || !room.hasMore) break;
      try {
        await this.client.loadOlder(this.roomID);
      } catch {
        break;
      }
    }
    const node = this.itemsContainer.querySelector(`[data-seq="${seq}"]`);
    if (!node) return;
    node.scrollIntoView({ block: 'center' });
    this.stickToBottom = this.isAtBottom();
    node.classList.add('highlighted');
    setTimeout(() => node.classList.remove('highlighted'), 2_000);
  }

  // MARK: composer

  composerKeyDown(event) {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.submit(event);
    } else if (event.key === 'Escape' && (this.replyTo || this.editing)) {
      event.preventDefault();
      this.clearContext();
    }
  }

  composerInput() {
    this.resizeComposer();
    if (!this.editing) this.client.saveDraft(this.roomID, this.textarea.value);
    if (this.textarea.value.trim()) this.client.userIsTyping(this.roomID);
  }

  resizeComposer() {
    this.textarea.style.height = 'auto';
    // Hidden (scrollHeight 0), the natural height of one row stands.
    if (this.textarea.scrollHeight > 0) {
      this.textarea.style.height = `${Math.min(this.textarea.scrollHeight, COMPOSER_MAX_HEIGHT_PX)}px`;
    }
  }

  submit(event) {
    event.preventDefault();
    const text = this.textarea.value;
    if (!text.trim()) return;
    if (this.editing) {
      if (text !== this.editing.text) this.client.editMessage(this.roomID, this.editing.seq, text);
    } else {
      this.client.sendText(this.roomID, text, this.replyTo);
      this.client.saveDraft(this.roomID, '');
    }
    this.textarea.value = '';
    this.clearContext();
    this.resizeComposer();
    this.scrollToBottom();
  }

  startReply(message) {
    this.editing = null;
    this.replyTo = message;
    const name = this.store.displayName(message.sender?.id, message.sender?.name ?? '');
    this.showContext(t('replyingTo', { name }), messageSummary(message));
  }

  startEdit(message) {
    this.replyTo = null;
    this.editing = message;
    this.textarea.value = message.text;
    this.showContext(t('editing'), messageSummary(message));
    this.resizeComposer();
  }

  showContext(title, detail) {
    replaceChildren(this.contextBar,
      el('div', { className: 'composer-context-text' },
        el('span', { className: 'composer-context-title', text: title }),
        el('span', { className: 'composer-context-detail', text: detail })),
      el('button', { type: 'button', className: 'icon-button', 'aria-label': t('cancel'), on: { click: () => this.clearContext() } }, icon(ICONS.close, { size: 18 })));
    this.contextBar.hidden = false;
    this.textarea.focus();
  }

  clearContext() {
    if (this.editing) {
      this.textarea.value = this.client.draft(this.roomID);
      this.resizeComposer();
    }
    this.replyTo = null;
    this.editing = null;
    this.contextBar.hidden = true;
    replaceChildren(this.contextBar);
  }

  deleteMessage(message) {
    if (window.confirm(t('confirmDelete'))) this.client.deleteMessage(this.roomID, message.seq);
  }

  // MARK: images: picker, paste, drag-and-drop

  sendImages(files) {
    const images = [...files].filter((file) => file.type.startsWith('image/'));
    if (images.length === 0) return false;
    this.scrollToBottom();
    for (const file of images) this.client.sendImage(this.roomID, file);
    return true;
  }

  filesPicked() {
    this.sendImages(this.fileInput.files);
    this.fileInput.value = '';
  }

  pasted(event) {
    const files = [...(event.clipboardData?.files ?? [])];
    if (this.sendImages(files)) event.preventDefault();
  }

  dragEntered(event) {
    if (!event.dataTransfer?.types.includes('Files')) return;
    event.preventDefault();
    this.dragDepth += 1;
    this.element.classList.add('dragging');
  }

  dragOver(event) {
    if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
  }

  dragLeft() {
    this.dragDepth = Math.max(0, this.dragDepth - 1);
    if (this.dragDepth === 0) this.element.classList.remove('dragging');
  }

  dropped(event) {
    event.preventDefault();
    this.dragDepth = 0;
    this.element.classList.remove('dragging');
    this.sendImages(event.dataTransfer?.files ?? []);
  }
}
