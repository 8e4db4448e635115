// A chat's header: back (on a phone), the room's avatar and name, muted mark, a Bot badge when the other member of a
// direct chat is a bot (§9.13: messages there show no sender name to carry one), who the other person is or what kind
// of room it is (with its member count), the search of its history (historySearch.js) and the ⓘ button for the chat's
// details.
import { el, icon, ICONS, replaceChildren } from '../dom.js';
import { t } from '../strings.js';
import { avatarElement, roomAvatar } from '../avatar.js';
import { statusOf } from '../presenceText.js';

export class ChatHeader {
  /**
   * `onOpenInfo()`: the ⓘ button was pressed (its element is `infoButton`, where the focus returns).
   * `onSearch()`: the search button was pressed (`searchButton`).
   */
  constructor(client, roomID, { onOpenInfo, onSearch }) {
    this.client = client;
    this.roomID = roomID;
    this.title = el('h2', { className: 'chat-title', id: 'chat-title' });
    this.subtitle = el('p', { className: 'chat-subtitle', id: 'chat-subtitle' });
    this.avatar = el('span', { className: 'chat-header-avatar' });
    this.infoButton = el('button', {
      type: 'button',
      className: 'icon-button',
      id: 'room-info-button',
      'aria-label': t('chatInfo'),
      'aria-haspopup': 'dialog',
      on: { click: () => onOpenInfo() },
    }, icon(ICONS.info));
    this.searchButton = el('button', {
      type: 'button',
      className: 'icon-button',
      id: 'history-search-button',
      'aria-label': t('searchChatHistory'),
      on: { click: () => onSearch() },
    }, icon(ICONS.search));
    this.mutedMark = el('span', { className: 'muted-mark', hidden: true, title: t('muted'), 'aria-label': t('muted'), role: 'img' }, icon(ICONS.muted, { size: 16 }));
    this.botBadge = el('span', { className: 'sender-badge', id: 'chat-bot-badge', hidden: true, text: t('badge_bot') });
    this.element = el('header', { className: 'chat-header' },
      el('a', { className: 'back-button icon-button', href: '#/chats', 'aria-label': t('back') }, icon(ICONS.back)),
      this.avatar,
      el('div', { className: 'chat-header-text' }, el('div', { className: 'chat-title-row' }, this.title, this.botBadge, this.mutedMark), this.subtitle),
      this.searchButton,
      this.infoButton);
  }

  render() {
    const room = this.client.store.rooms.get(this.roomID);
    if (!room) return;
    this.title.textContent = room.name;
    this.mutedMark.hidden = !this.client.notifier.isMuted(this.roomID);
    this.botBadge.hidden = !(room.kind === 'direct' && room.peer?.bot === true);
    replaceChildren(this.avatar, avatarElement(roomAvatar(room), { size: 'small' }));
    if (room.kind === 'direct' && room.peer) {
      this.subtitle.textContent = statusOf(this.client, room.peer.id).text;
      return;
    }
    const kind = room.kind === 'group' ? t('group') : t('channel');
    const members = this.client.memberCount(room.id);
    this.subtitle.textContent = members ? `${kind} · ${members === 1 ? t('member') : t('members', { count: members })}` : kind;
  }
}
