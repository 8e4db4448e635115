// Choosing the chats to forward messages to (PROTOCOL.md §7.6, WeChat's 转发): my chats, newest activity first, a
// search that filters them by name as I type, and a tick for each; Send forwards every message to every chat ticked,
// then a note says it was done or what failed, and why (describeError: the server's words for a refusal this page
// has no text of its own for).
import { el, icon, ICONS, replaceChildren } from '../dom.js';
import { describeError, t } from '../strings.js';
import { avatarElement, roomAvatar } from '../avatar.js';
import { showToast } from './toast.js';

export class ForwardPicker {
  constructor(client, roomID) {
    Object.assign(this, { client, roomID });
    this.opener = null;
    this.seqs = [];
    this.chosen = new Set(); // room ids
    this.body = el('div', { className: 'dialog-body' });
    this.element = el('dialog', {
      className: 'people-picker forward-picker',
      id: 'forward-picker',
      'aria-labelledby': 'forward-picker-title',
      on: {
        close: () => this.opener?.focus?.(),
        click: (event) => { if (event.target === this.element) this.close(); },
      },
    }, this.body);
  }

  /** Opens to forward messages `seqs` of this chat (in order); the focus returns to `opener` when it closes. */
  open(seqs, opener) {
    this.seqs = seqs;
    this.opener = opener;
    this.chosen = new Set();
    this.searchInput = el('input', {
      type: 'search', className: 'text-input', id: 'forward-search', placeholder: t('searchChats'), 'aria-label': t('searchChats'),
      on: { input: () => this.render() },
    });
    this.list = el('ul', { className: 'contact-list people-results', id: 'forward-chats', 'aria-label': t('tabChats') });
    this.chosenCount = el('span', { className: 'people-chosen', id: 'forward-chosen', role: 'status' });
    this.sendButton = el('button', {
      type: 'button', className: 'button primary', id: 'forward-send', text: t('send'), on: { click: () => this.send() },
    });
    replaceChildren(this.body,
      el('header', { className: 'dialog-header' },
        el('h2', { className: 'dialog-title', id: 'forward-picker-title', text: t('forwardTo', { count: seqs.length }) }),
        el('button', { type: 'button', className: 'icon-button dialog-close', 'aria-label': t('close'), on: { click: () => this.close() } }, icon(ICONS.close))),
      el('div', { className: 'inline-form-row' }, this.searchInput),
      this.list,
      el('div', { className: 'people-actions' }, this.chosenCount, this.sendButton));
    this.render();
    this.renderChosen();
    if (!this.element.open) this.element.showModal();
    this.searchInput.focus();
  }

  close() {
    if (this.element.open) this.element.close();
  }

  render() {
    const needle = this.searchInput.value.trim().toLocaleLowerCase();
    const rooms = this.client.store.sortedRooms().filter((room) => !needle || room.name.toLocaleLowerCase().includes(needle));
    if (rooms.length === 0) {
      replaceChildren(this.list, el('li', { className: 'empty-note', text: t('noChatsFound') }));
      return;
    }
    replaceChildren(this.list, rooms.map((room) => el('li', {},
      el('label', { className: 'contact-item', dataset: { roomId: room.id } },
        el('input', {
          type: 'checkbox',
          checked: this.chosen.has(room.id),
          on: { change: (event) => this.choose(room.id, event.target.checked) },
        }),
        avatarElement(roomAvatar(room)),
        el('span', { className: 'contact-main' }, el('span', { className: 'contact-name', text: room.name }))))));
  }

  choose(roomID, chosen) {
    if (chosen) this.chosen.add(roomID);
    else this.chosen.delete(roomID);
    this.renderChosen();
  }

  renderChosen() {
    this.chosenCount.textContent = t('chatsChosen', { count: this.chosen.size });
    this.sendButton.disabled = this.chosen.size === 0;
  }

  async send() {
    const targets = this.client.store.sortedRooms().map((room) => room.id).filter((id) => this.chosen.has(id));
    this.sendButton.disabled = true;
    const failures = await this.client.forward(this.roomID, this.seqs, targets);
    this.close();
    if (failures.length === 0) {
      showToast(t('forwarded'));
      return;
    }
    const { targetID, error } = failures[0];
    const chat = this.client.store.rooms.get(targetID)?.name ?? '';
    showToast(t('forwardFailed', { count: failures.length, chat, reason: describeError(error) }), { alert: true });
  }
}
