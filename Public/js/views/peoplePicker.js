// A dialog for starting something with people, from the Chats tab's ⊕ menu (and the Contacts tab's Add contact):
//   chat:    pick one of my contacts (the list filters as you type) and open our direct chat;
//   group:   name a group, tick its members among my contacts, create it;
//   contact: find someone on the server by username or name (people search, GET /users?query=) and add them to my
//            contacts (PROTOCOL.md §6.4).
import { el, icon, ICONS, replaceChildren } from '../dom.js';
import { errorText, t } from '../strings.js';
import { avatarElement, profileAvatar } from '../avatar.js';
import { chatPath, navigate } from '../router.js';
import { showToast } from './toast.js';

const FILTER_DELAY_MS = 250;
const TITLES = { chat: 'newChat', group: 'newGroup', contact: 'addContact' };

export class PeoplePicker {
  constructor(client) {
    this.client = client;
    this.mode = null;
    this.request = 0;
    this.body = el('div', { className: 'dialog-body' });
    this.element = el('dialog', {
      className: 'people-picker',
      id: 'people-picker',
      'aria-labelledby': 'people-picker-title',
      on: {
        close: () => this.opener?.focus(),
        click: (event) => { if (event.target === this.element) this.close(); },
      },
    }, this.body);
  }

  /** Opens for `mode` ('chat', 'group' or 'contact'); the focus returns to `opener` when it closes. */
  open(mode, opener) {
    this.mode = mode;
    this.opener = opener;
    this.chosen = new Map(); // username → profile, for a group
    this.people = [];
    this.build();
    if (!this.element.open) this.element.showModal();
    (this.nameInput ?? this.searchInput).focus();
    if (mode !== 'contact') this.load();
  }

  close() {
    clearTimeout(this.filterTimer);
    if (this.element.open) this.element.close();
  }

  build() {
    const mode = this.mode;
    this.searchInput = el('input', {
      type: 'search',
      className: 'text-input',
      id: 'people-search',
      autocapitalize: 'none',
      spellcheck: 'false',
      placeholder: t(mode === 'contact' ? 'findByUsername' : 'searchPeople'),
      'aria-label': t(mode === 'contact' ? 'findByUsername' : 'searchPeople'),
      on: { input: () => { if (mode !== 'contact') this.scheduleLoad(); } },
    });
    this.nameInput = mode === 'group' ? el('input', {
      type: 'text', className: 'text-input', id: 'new-group-name', maxlength: '64', required: true,
      placeholder: t('roomName_group'), 'aria-label': t('roomName_group'),
    }) : null;
    this.list = el('ul', { className: 'contact-list people-results', id: 'people-results', 'aria-label': t('people') });
    this.error = el('p', { className: 'form-error', role: 'alert' });
    this.chosenCount = el('span', { className: 'people-chosen', id: 'people-chosen', role: 'status' });
    const search = mode === 'contact'
      ? el('form', { className: 'inline-form-row', on: { submit: (event) => { event.preventDefault(); this.load(); } } },
        this.searchInput, el('button', { type: 'submit', className: 'button primary', id: 'people-find', text: t('find') }))
      : el('div', { className: 'inline-form-row' }, this.searchInput);
    replaceChildren(this.body,
      el('header', { className: 'dialog-header' },
        el('h2', { className: 'dialog-title', id: 'people-picker-title', text: t(TITLES[mode]) }),
        el('button', { type: 'button', className: 'icon-button dialog-close', 'aria-label': t('close'), on: { click: () => this.close() } }, icon(ICONS.close))),
      this.nameInput && el('div', { className: 'inline-form-row' }, this.nameInput),
      search,
      this.error,
      this.list,
      mode === 'group' && el('div', { className: 'people-actions' },
        this.chosenCount,
        el('button', { type: 'button', className: 'button primary', id: 'new-group-create', text: t('create'), on: { click: () => this.createGroup() } })));
    this.renderChosen();
  }

  scheduleLoad() {
    clearTimeout(this.filterTimer);
    this.filterTimer = setTimeout(() => this.load(), FILTER_DELAY_MS);
  }

  async load() {
    const request = ++this.request;
    const query = this.searchInput.value.trim();
    if (this.mode === 'contact' && !query) return;
    try {
      const people = this.mode === 'contact' ? await this.client.users(query) : await this.contactsMatching(query);
      if (request !== this.request) return;
      this.people = people.filter((person) => person.id !== this.client.me.id)
        .sort((a, b) => a.displayName.localeCompare(b.displayName, undefined, { sensitivity: 'base' }));
      this.error.textContent = '';
    } catch (error) {
      if (request === this.request) this.error.textContent = errorText(error.code);
      return;
    }
    this.render();
  }

  /** My contacts whose name or username holds `query` (without case). */
  async contactsMatching(query) {
    const needle = query.toLocaleLowerCase();
    return (await this.client.contacts()).map(({ user }) => user).filter((user) => !needle
      || user.displayName.toLocaleLowerCase().includes(needle) || user.username.toLocaleLowerCase().includes(needle));
  }

  render() {
    if (this.people.length === 0) {
      replaceChildren(this.list, el('li', { className: 'empty-note', text: t(this.mode === 'contact' ? 'noSuchUser' : 'nobodyFound') }));
      return;
    }
    const item = { chat: (person) => this.opening(person), group: (person) => this.choice(person), contact: (person) => this.adding(person) }[this.mode];
    replaceChildren(this.list, this.people.map((person) => el('li', {}, item(person))));
  }

  personText(person) {
    return [avatarElement(profileAvatar(person)),
      el('span', { className: 'contact-main' },
        el('span', { className: 'contact-name', text: person.displayName }),
        el('span', { className: 'contact-detail', text: `@${person.username}` }))];
  }

  /** Someone to open a direct chat with. */
  opening(person) {
    return el('button', {
      type: 'button',
      className: 'contact-item',
      dataset: { username: person.username },
      on: { click: (event) => this.openChat(person, event.currentTarget) },
    }, this.personText(person));
  }

  /** Someone found on the server, to add to my contacts. */
  adding(person) {
    return el('button', {
      type: 'button',
      className: 'contact-item',
      dataset: { username: person.username },
      'aria-label': t('addContactNamed', { name: person.displayName, username: person.username }),
      on: { click: (event) => this.addContact(person, event.currentTarget) },
    }, this.personText(person), el('span', { className: 'contact-add', 'aria-hidden': 'true' }, icon(ICONS.plus, { size: 20 })));
  }

  /** Someone to tick as a member of the new group. */
  choice(person) {
    return el('label', { className: 'contact-item', dataset: { username: person.username } },
      el('input', {
        type: 'checkbox',
        checked: this.chosen.has(person.username),
        on: { change: (event) => this.choose(person, event.target.checked) },
      }),
      this.personText(person));
  }

  choose(person, chosen) {
    if (chosen) this.chosen.set(person.username, person);
    else this.chosen.delete(person.username);
    this.renderChosen();
  }

  renderChosen() {
    this.chosenCount.textContent = t('membersChosen', { count: this.chosen.size });
  }

  async openChat(person, button) {
    button.disabled = true;
    try {
      const roomID = await this.client.openDirect(person.username);
      this.opener = null; // the focus goes to the chat, not back to the menu
      this.close();
      navigate(chatPath(roomID));
    } catch (error) {
      this.error.textContent = errorText(error.code);
      button.disabled = false;
    }
  }

  async addContact(person, button) {
    button.disabled = true;
    try {
      await this.client.addContact(person.username);
      this.close();
      showToast(t('contactAdded', { name: person.displayName }));
    } catch (error) {
      this.error.textContent = error.code === 'unknown_user' ? t('noSuchUser') : errorText(error.code);
      button.disabled = false;
    }
  }

  async createGroup() {
    const name = this.nameInput.value.trim();
    if (!name) {
      this.error.textContent = t('error_invalid_name');
      this.nameInput.focus();
      return;
    }
    try {
      const roomID = await this.client.createRoom('group', name, [...this.chosen.keys()]);
      this.opener = null;
      this.close();
      navigate(chatPath(roomID));
    } catch (error) {
      this.error.textContent = errorText(error.code);
    }
  }
}
