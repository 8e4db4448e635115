// The Chats tab: every room I am in, newest activity first, with a search bar that filters the list as I type and
// can search message text on the server (§9.7).
import { el, icon, ICONS, replaceChildren } from '../dom.js';
import { errorText, t } from '../strings.js';
import { avatarElement, roomAvatar } from '../avatar.js';
import { formatListTime } from '../time.js';
import { chatPath, navigate } from '../router.js';
import { messagePreview } from './preview.js';

export class ChatListView {
  constructor(client) {
    this.client = client;
    this.store = client.store;
    this.selectedRoomID = null;
    this.query = '';
    this.searchRequest = 0;

    this.searchInput = el('input', {
      type: 'search',
      className: 'search-input',
      id: 'chat-search',
      placeholder: t('searchPlaceholder'),
      'aria-label': t('searchPlaceholder'),
      autocomplete: 'off',
      on: { input: () => this.queryChanged() },
    });
    this.list = el('ul', { className: 'chat-list', id: 'chat-list', 'aria-label': t('tabChats') });
    this.searchArea = el('div', { className: 'message-search' });
    this.element = el('div', { className: 'chats-view' },
      el('div', { className: 'search-bar' }, icon(ICONS.search, { size: 18 }), this.searchInput),
      this.list,
      this.searchArea);
    this.unsubscribers = ['rooms', 'me', 'profiles'].map((topic) => this.store.on(topic, () => this.render()));
    this.render();
  }

  setSelectedRoom(roomID) {
    this.selectedRoomID = roomID;
    for (const item of this.list.querySelectorAll('.chat-item')) {
      item.classList.toggle('selected', item.dataset.roomId === roomID);
      if (item.dataset.roomId === roomID) item.setAttribute('aria-current', 'true');
      else item.removeAttribute('aria-current');
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
    replaceChildren(this.list, rooms.map((room) => this.renderRoom(room)));
  }

  renderRoom(room) {
    const preview = this.preview(room);
    const unread = room.unreadCount;
    const selected = room.id === this.selectedRoomID;
    return el('li', {},
      el('a', {
        className: `chat-item${selected ? ' selected' : ''}`,
        href: `#/${chatPath(room.id)}`,
        dataset: { roomId: room.id },
        'aria-current': selected ? 'true' : undefined,
      },
      el('span', { className: 'avatar-wrap' },
        avatarElement(roomAvatar(room), { size: 'large' }),
        unread > 0 && el('span', {
          className: 'badge',
          text: unread > 99 ? '99+' : String(unread),
          'aria-label': t('unreadCount', { count: unread }),
        })),
      el('span', { className: 'chat-item-main' },
        el('span', { className: 'chat-item-top' },
          el('span', { className: 'chat-item-name', text: room.name }),
          el('time', { className: 'chat-item-time', text: room.lastMessage ? formatListTime(room.lastMessage.date) : '' })),
        el('span', { className: 'chat-item-preview', text: preview }))));
  }

  preview(room) {
    return messagePreview(room, this.store.me, (sender) => {
      this.client.profile(sender?.id);
      return this.store.displayName(sender?.id, sender?.name);
    });
  }

  renderSearchOffer() {
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

  async searchMessages() {
    const query = this.query;
    const request = ++this.searchRequest;
    let results;
    try {
      results = (await this.client.searchMessages(query)).results;
    } catch (error) {
      if (request === this.searchRequest) replaceChildren(this.searchArea, el('p', { className: 'form-error', role: 'alert', text: errorText(error.code) }));
      return;
    }
    if (request !== this.searchRequest) return;
    replaceChildren(this.searchArea,
      el('h2', { className: 'section-title', text: t('searchResults') }),
      results.length === 0
        ? el('p', { className: 'empty-note', text: t('noSearchResults') })
        : el('ul', { className: 'search-results', id: 'search-results' }, results.map((result) => this.renderResult(result))));
  }

  renderResult({ message, snippet }) {
    const room = this.store.rooms.get(message.room);
    const pieces = (snippet ?? [{ text: message.text }]).map((piece) => (piece.match
      ? el('mark', { text: piece.text })
      : document.createTextNode(piece.text)));
    return el('li', {},
      el('button', {
        type: 'button',
        className: 'search-result',
        on: { click: () => navigate(chatPath(message.room, message.seq)) },
      },
      el('span', { className: 'search-result-top' },
        el('span', { className: 'chat-item-name', text: `${this.store.displayName(message.sender?.id, message.sender?.name ?? '')} · ${room?.name ?? ''}` }),
        el('time', { className: 'chat-item-time', text: formatListTime(message.date) })),
      el('span', { className: 'search-result-snippet' }, pieces)));
  }

  destroy() {
    this.unsubscribers.forEach((unsubscribe) => unsubscribe());
  }
}
