// The Chats tab: every room I am in, pinned ones first on a grey background, then newest activity first (a draft,
// kept by the server for every device, shows as "[Draft]", unread mentions of me as "[Someone @ you]"; a chat that
// notifies me of nothing is marked, and one that does not notify me of every message has a grey badge). A chat's
// menu (right-click, a long press that the browser turns into a context menu, the context-menu key or Shift+F10)
// pins it to the top or unpins it, and marks it unread (a red dot until I open it) or read again (§7.5). A search bar filters the list as I type and can search message text on
// the server (§9.7, messageSearch.js: filters, results by chat; a hit opens its chat at it).
import { el, icon, ICONS, replaceChildren } from '../dom.js';
import { describeError, t } from '../strings.js';
import { avatarElement, roomAvatar } from '../avatar.js';
import { formatListTime } from '../time.js';
import { chatPath, navigate } from '../router.js';
import { messagePreview } from './preview.js';
import { MessageSearch } from './messageSearch.js';
import { ChatItemMenu } from './chatItemMenu.js';
import { showToast } from './toast.js';

export class ChatListView {
  constructor(client) {
    this.client = client;
    this.store = client.store;
    this.selectedRoomID = null;
    this.query = '';

    this.searchInput = el('input', {
      type: 'search',
      className: 'search-input',
      id: 'chat-search',
      placeholder: t('searchPlaceholder'),
      'aria-label': t('searchPlaceholder'),
      on: { input: () => this.queryChanged() },
    });
    this.list = el('ul', { className: 'chat-list', id: 'chat-list', 'aria-label': t('tabChats'), tabindex: '-1' });
    this.searchArea = el('div', { className: 'message-search' });
    this.messageSearch = new MessageSearch(client, {
      idPrefix: 'search',
      onOpen: (message) => navigate(chatPath(message.room, message.seq)),
    });
    this.menu = new ChatItemMenu({
      onPin: (room, pinned) => this.changeFromMenu(room, () => this.client.setPinned(room.id, pinned)),
      onMarkUnread: (room, marked) => this.changeFromMenu(room, () => this.client.setMarkedUnread(room.id, marked)),
    });
    this.list.addEventListener('contextmenu', (event) => this.openMenu(event.target, event, { x: event.clientX, y: event.clientY }));
    this.list.addEventListener('keydown', (event) => {
      if (event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) this.openMenu(event.target, event);
    });
    this.element = el('div', { className: 'chats-view' },
      el('div', { className: 'search-bar' }, icon(ICONS.search, { size: 18 }), this.searchInput),
      this.list,
      this.searchArea,
      this.menu.element);
    this.unsubscribers = ['rooms', 'me', 'profiles', 'settings'].map((topic) => this.store.on(topic, () => this.render()));
    this.render();
  }

  setSelectedRoom(roomID) {
    if (roomID === this.selectedRoomID) return;
    this.selectedRoomID = roomID;
    this.render(); // the chat left may have a draft to show now
  }

  /** The menu of the chat `target` is in (nothing outside a chat): at `at`, or beside the chat. */
  openMenu(target, event, at = null) {
    const item = target.closest('.chat-item');
    const room = item && this.store.rooms.get(item.dataset.roomId);
    if (!room) return;
    event.preventDefault();
    this.menu.open(room, item, at);
  }

  /** Makes a change the chat's menu asked for; the focus goes back to the chat, or a note says why it failed. */
  async changeFromMenu(room, change) {
    try {
      await change();
      this.list.querySelector(`.chat-item[data-room-id="${CSS.escape(room.id)}"]`)?.focus();
    } catch (error) {
      showToast(describeError(error), { alert: true });
    }
  }

  queryChanged() {
    this.query = this.searchInput.value.trim();
    this.render();
    this.renderSearchOffer();
  }

  render() {
    const needle = this.query.toLocaleLowerCase();
    const rooms = this.store.sortedRooms().filter((room) => !needle
      || room.name.toLocaleLowerCase().includes(needle)
      || this.preview(room).toLocaleLowerCase().includes(needle));
    if (rooms.length === 0 && !needle) {
      replaceChildren(this.list, el('li', { className: 'empty-note', text: t('noChats') }));
      return;
    }
    // Rebuilding the list must not lose the keyboard focus of the person moving through it.
    const focusedRoom = this.list.contains(document.activeElement) ? document.activeElement.dataset.roomId : null;
    replaceChildren(this.list, rooms.map((room) => this.renderRoom(room)));
    if (focusedRoom) this.list.querySelector(`.chat-item[data-room-id="${CSS.escape(focusedRoom)}"]`)?.focus();
  }

  renderRoom(room) {
    const draft = room.id === this.selectedRoomID ? '' : this.client.draft(room.id).trim();
    const preview = this.preview(room);
    const unread = room.unreadCount;
    const selected = room.id === this.selectedRoomID;
    const muted = this.client.notifier.isMuted(room.id);
    const mentioned = room.mentionCount > 0;
    return el('li', {},
      el('a', {
        className: `chat-item${selected ? ' selected' : ''}${room.pinned ? ' pinned' : ''}`,
        href: `#/${chatPath(room.id)}`,
        dataset: { roomId: room.id },
        'aria-current': selected ? 'true' : undefined,
      },
      el('span', { className: 'avatar-wrap' },
        avatarElement(roomAvatar(room), { size: 'large' }),
        unread > 0 && el('span', {
          className: `badge${room.notifications !== 'all' ? ' muted' : ''}`,
          text: unread > 99 ? '99+' : String(unread),
          'aria-label': t('unreadCount', { count: unread }),
        }),
        unread === 0 && room.markedUnread && el('span', { className: 'badge unread-dot', role: 'img', 'aria-label': t('markedUnread') })),
      el('span', { className: 'chat-item-main' },
        el('span', { className: 'chat-item-top' },
          el('span', { className: 'chat-item-name', text: room.name }),
          room.pinned && el('span', { className: 'visually-hidden', text: t('pinnedChat') }),
          muted && el('span', { className: 'muted-mark', role: 'img', 'aria-label': t('muted'), title: t('muted') }, icon(ICONS.muted, { size: 14 })),
          el('time', { className: 'chat-item-time', text: room.lastMessage ? formatListTime(room.lastMessage.date) : '' })),
        el('span', { className: 'chat-item-preview' },
          mentioned && el('span', { className: 'mention-mark', text: t('mentionMark') }),
          mentioned && ' ',
          draft && el('span', { className: 'draft-mark', text: t('draftMark') }),
          draft ? ` ${draft.replace(/\s+/g, ' ')}` : preview))));
  }

  preview(room) {
    return messagePreview(room, this.store.me, (sender) => {
      this.client.profile(sender?.id, sender?.name, sender?.via);
      return this.store.displayName(sender?.id, sender?.name);
    });
  }

  renderSearchOffer() {
    this.messageSearch.clear();
    if (!this.query) {
      replaceChildren(this.searchArea);
      return;
    }
    replaceChildren(this.searchArea, el('button', {
      type: 'button',
      className: 'search-messages-button',
      id: 'search-messages',
      on: { click: () => this.searchMessages() },
    }, icon(ICONS.search, { size: 18 }), t('searchMessages', { query: this.query })));
  }

  searchMessages() {
    replaceChildren(this.searchArea, this.messageSearch.element);
    this.messageSearch.run(this.query);
  }

  destroy() {
    this.menu.close();
    this.messageSearch.destroy();
    this.unsubscribers.forEach((unsubscribe) => unsubscribe());
  }
}
