// The Contacts tab: everyone, A–Z, with presence dots. Choosing someone opens our direct chat (creating it).
import { el, replaceChildren } from '../dom.js';
import { errorText, t } from '../strings.js';
import { avatarElement, profileAvatar } from '../avatar.js';
import { LAST_SEEN_LOOKUPS, statusOf } from '../presenceText.js';
import { chatPath, navigate } from '../router.js';

const FILTER_DELAY_MS = 250;

export class ContactsView {
  constructor(client) {
    this.client = client;
    this.store = client.store;
    this.users = [];
    this.request = 0;
    this.filterTimer = null;

    this.filterInput = el('input', {
      type: 'search',
      className: 'search-input',
      id: 'contacts-filter',
      placeholder: t('contactsFilter'),
      'aria-label': t('contactsFilter'),
      on: { input: () => this.scheduleLoad() },
    });
    this.list = el('ul', { className: 'contact-list', id: 'contact-list', 'aria-label': t('tabContacts') });
    this.error = el('p', { className: 'form-error', role: 'alert' });
    this.element = el('div', { className: 'contacts-view' },
      el('div', { className: 'search-bar' }, this.filterInput), this.error, this.list);
    this.unsubscribers = ['presence', 'connection'].map((topic) => this.store.on(topic, () => this.render()));
    this.load();
  }

  scheduleLoad() {
    clearTimeout(this.filterTimer);
    this.filterTimer = setTimeout(() => this.load(), FILTER_DELAY_MS);
  }

  async load() {
    const request = ++this.request;
    try {
      const users = await this.client.users(this.filterInput.value.trim());
      if (request !== this.request) return;
      this.users = users
        .filter((user) => user.id !== this.store.me.id)
        .sort((a, b) => a.displayName.localeCompare(b.displayName, undefined, { sensitivity: 'base' }));
      this.error.textContent = '';
    } catch (error) {
      if (request === this.request) this.error.textContent = errorText(error.code);
    }
    this.render();
  }

  render() {
    if (this.users.length === 0) {
      replaceChildren(this.list, el('li', { className: 'empty-note', text: t('noContacts') }));
      return;
    }
    replaceChildren(this.list, this.users.map((user, index) => this.renderUser(user, index < LAST_SEEN_LOOKUPS)));
  }

  renderUser(user, lookUpLastSeen) {
    const { presence, text: status } = statusOf(this.client, user.id, { lookUp: lookUpLastSeen });
    const online = presence?.online === true;
    return el('li', {},
      el('button', {
        type: 'button',
        className: 'contact-item',
        dataset: { username: user.username },
        on: { click: (event) => this.openChat(user, event.currentTarget) },
      },
      el('span', { className: 'avatar-wrap' },
        avatarElement(profileAvatar(user)),
        el('span', { className: `presence-dot${online ? ' online' : ''}${presence ? '' : ' unknown'}`, 'aria-hidden': 'true' })),
      el('span', { className: 'contact-main' },
        el('span', { className: 'contact-name', text: user.displayName }),
        el('span', { className: 'contact-detail', text: `@${user.username} · ${status}` }))));
  }

  async openChat(user, button) {
    button.disabled = true;
    try {
      navigate(chatPath(await this.client.openDirect(user.username)));
    } catch (error) {
      this.error.textContent = errorText(error.code);
      button.disabled = false;
    }
  }

  destroy() {
    clearTimeout(this.filterTimer);
    this.unsubscribers.forEach((unsubscribe) => unsubscribe());
  }
}
