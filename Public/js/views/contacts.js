// The Contacts tab: my contacts (PROTOCOL.md §6.4), the people I share a direct room or group with and those I added,
// not everyone on the server; A–Z, with presence dots, filtered as I type. Choosing someone opens our direct chat
// (creating it). "Add contact" finds someone by username; one I added has a Remove button, and stays listed when a
// shared room keeps them a contact (the server's list says so).
import { el, icon, ICONS, replaceChildren } from '../dom.js';
import { describeError, errorText, t } from '../strings.js';
import { avatarElement, profileAvatar } from '../avatar.js';
import { LAST_SEEN_LOOKUPS, statusOf } from '../presenceText.js';
import { chatPath, navigate } from '../router.js';
import { showToast } from './toast.js';

export class ContactsView {
  /** `picker`: the people picker (peoplePicker.js) that Add contact opens. */
  constructor(client, picker) {
    this.client = client;
    this.picker = picker;
    this.store = client.store;
    this.contacts = [];
    this.request = 0;

    this.filterInput = el('input', {
      type: 'search',
      className: 'search-input',
      id: 'contacts-filter',
      placeholder: t('contactsFilter'),
      'aria-label': t('contactsFilter'),
      on: { input: () => this.render() },
    });
    this.addButton = el('button', {
      type: 'button',
      className: 'contact-item add-contact-item',
      id: 'add-contact',
      'aria-haspopup': 'dialog',
      on: { click: () => this.picker.open('contact', this.addButton) },
    }, el('span', { className: 'avatar avatar-medium add-contact-icon', 'aria-hidden': 'true' }, icon(ICONS.plus)),
    el('span', { className: 'contact-main add-contact-label', text: t('addContact') }));
    this.list = el('ul', { className: 'contact-list', id: 'contact-list', 'aria-label': t('tabContacts') });
    this.error = el('p', { className: 'form-error', role: 'alert' });
    this.element = el('div', { className: 'contacts-view' },
      el('div', { className: 'search-bar' }, this.filterInput), this.addButton, this.error, this.list);
    this.unsubscribers = ['presence', 'connection'].map((topic) => this.store.on(topic, () => this.render()));
    this.unsubscribers.push(this.store.on('contacts', () => this.load()));
    this.load();
  }

  async load() {
    const request = ++this.request;
    try {
      const contacts = await this.client.contacts();
      if (request !== this.request) return;
      this.contacts = contacts;
      this.error.textContent = '';
    } catch (error) {
      if (request === this.request) this.error.textContent = errorText(error.code);
    }
    this.render();
  }

  /** The contacts whose name or username holds the filter's text (without case). */
  shown() {
    const needle = this.filterInput.value.trim().toLocaleLowerCase();
    return this.contacts.filter(({ user }) => !needle
      || user.displayName.toLocaleLowerCase().includes(needle) || user.username.toLocaleLowerCase().includes(needle));
  }

  render() {
    const contacts = this.shown();
    if (contacts.length === 0) {
      replaceChildren(this.list, el('li', { className: 'empty-note', text: t('noContacts') }));
      return;
    }
    // Rebuilding the list (presence changes) must not lose the keyboard focus of the person moving through it.
    const focused = this.list.contains(document.activeElement) ? document.activeElement : null;
    replaceChildren(this.list, contacts.map((contact, index) => this.renderContact(contact, index < LAST_SEEN_LOOKUPS)));
    if (!focused) return;
    const kind = focused.classList.contains('contact-remove') ? '.contact-remove' : '.contact-item';
    this.list.querySelector(`${kind}[data-username="${CSS.escape(focused.dataset.username)}"]`)?.focus();
  }

  renderContact({ user, added }, lookUpLastSeen) {
    const { presence, text: status } = statusOf(this.client, user.id, { lookUp: lookUpLastSeen });
    const online = presence?.online === true;
    return el('li', { className: 'contact-row' },
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
        el('span', { className: 'contact-detail', text: `@${user.username} · ${status}` }))),
      added === true && el('button', {
        type: 'button',
        className: 'icon-button contact-remove',
        dataset: { username: user.username },
        'aria-label': t('removeContactNamed', { name: user.displayName }),
        title: t('removeContact'),
        on: { click: () => this.remove(user) },
      }, icon(ICONS.close, { size: 18 })));
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

  /** No longer added; the list comes again, and keeps them when a shared room makes them a contact. */
  async remove(user) {
    try {
      await this.client.removeContact(user.id);
      showToast(t('contactRemoved', { name: user.displayName }));
    } catch (error) {
      showToast(describeError(error), { alert: true });
    }
  }

  destroy() {
    this.picker.close();
    this.unsubscribers.forEach((unsubscribe) => unsubscribe());
  }
}
