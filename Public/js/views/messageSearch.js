// Message search results (§9.7) with their filters: chips for who sent it (found with the people search), links,
// images, files and a date range, each removable. Results come newest first and are grouped by chat (its avatar and
// name above its hits, in the order of their newest hit); each hit names its sender and date, with what matched
// highlighted from the server's snippet pieces (as text: never markup). A query the server refuses shows its reason.
// Used by the Chats tab (every chat) and by a chat's "Search chat history" (that chat only, `roomID`).
import { el, icon, ICONS, replaceChildren } from '../dom.js';
import { errorText, t } from '../strings.js';
import { avatarElement, profileAvatar, roomAvatar } from '../avatar.js';
import { formatListTime } from '../time.js';

const FIRST_RESULTS = 20;
const MORE_RESULTS = 100; // the most the server gives (§9.7)
const PEOPLE_DELAY_MS = 250;
const HAS_FILTERS = [['link', 'filterHasLink'], ['image', 'filterHasImage'], ['file', 'filterHasFile']];

export class MessageSearch {
  /**
   * `idPrefix`: the ids of its parts (`${idPrefix}-results`, `-more`, `-from`…). `roomID`: search that chat only.
   * `onOpen(message)`: a hit was chosen.
   */
  constructor(client, { idPrefix, roomID = null, onOpen }) {
    Object.assign(this, { client, idPrefix, roomID, onOpen });
    this.store = client.store;
    this.query = '';
    this.request = 0;
    this.peopleRequest = 0;
    this.peopleTimer = null;
    this.filters = { from: null, has: new Set(), before: '', after: '' };
    this.chips = el('div', { className: 'search-filters', role: 'group', 'aria-label': t('searchFilters') });
    this.picker = el('div', { className: 'search-from-picker', hidden: true });
    this.output = el('div', { className: 'search-output' });
    this.element = el('div', { className: 'message-search-results' }, this.chips, this.picker, this.output);
  }

  /** Searches for `query` (which may hold filters of its own, §9.7) with the chips' filters. */
  async run(query = this.query, limit = FIRST_RESULTS) {
    this.query = query;
    this.renderChips();
    const request = ++this.request;
    this.output.setAttribute('aria-busy', 'true');
    let results;
    try {
      results = (await this.client.searchMessages(query, { ...this.parameters(), limit })).results;
    } catch (error) {
      if (request !== this.request) return;
      this.output.setAttribute('aria-busy', 'false');
      // The server says what was wrong with a query it refuses (a filter without a value, an unknown person…).
      const text = error.code === 'invalid_query' && error.message ? error.message : errorText(error.code);
      replaceChildren(this.output, el('p', { className: 'form-error', id: `${this.idPrefix}-error`, role: 'alert', text }));
      return;
    }
    if (request !== this.request) return;
    this.output.setAttribute('aria-busy', 'false');
    replaceChildren(this.output,
      el('h2', { className: 'section-title', text: t('searchResults') }),
      results.length === 0
        ? el('p', { className: 'empty-note', text: t('noSearchResults') })
        : el('ul', { className: 'search-results', id: `${this.idPrefix}-results` }, this.groups(results).map((group) => this.renderGroup(group))),
      results.length === limit && limit < MORE_RESULTS && el('button', {
        type: 'button',
        className: 'search-messages-button',
        id: `${this.idPrefix}-more`,
        text: t('moreResults'),
        on: { click: () => this.run(this.query, MORE_RESULTS) },
      }));
  }

  clear() {
    this.request += 1;
    this.query = '';
    this.output.setAttribute('aria-busy', 'false');
    replaceChildren(this.output);
  }

  /** The chips' filters as the search's parameters (§9.7). */
  parameters() {
    const { from, has, before, after } = this.filters;
    return { room: this.roomID, from: from?.username, has: [...has].join(','), before, after };
  }

  /** Hits grouped by chat, newest first: [{roomID, hits}]. */
  groups(results) {
    const byRoom = new Map();
    for (const result of results) {
      const roomID = result.message.room;
      if (!byRoom.has(roomID)) byRoom.set(roomID, []);
      byRoom.get(roomID).push(result);
    }
    return [...byRoom].map(([roomID, hits]) => ({ roomID, hits }));
  }

  renderGroup({ roomID, hits }) {
    const room = this.store.rooms.get(roomID);
    const headingID = `${this.idPrefix}-group-${roomID}`;
    return el('li', { className: 'search-group', dataset: { roomId: roomID } },
      el('h3', { className: 'search-group-header', id: headingID },
        room && avatarElement(roomAvatar(room), { size: 'small' }),
        el('span', { className: 'search-group-name', text: room?.name ?? '' })),
      el('ul', { className: 'search-hits', 'aria-labelledby': headingID }, hits.map((hit) => this.renderHit(hit))));
  }

  renderHit({ message, snippet }) {
    const mine = message.sender?.id === this.store.me.id;
    const sender = mine ? t('you') : this.store.displayName(message.sender?.id, message.sender?.name ?? '');
    const pieces = (snippet ?? [{ text: message.text ?? '' }]).map((piece) => (piece.match
      ? el('mark', { text: piece.text })
      : document.createTextNode(piece.text)));
    return el('li', {},
      el('button', {
        type: 'button',
        className: 'search-result',
        dataset: { roomId: message.room, seq: String(message.seq) },
        on: { click: () => this.onOpen(message) },
      },
      el('span', { className: 'search-result-top' },
        el('span', { className: 'chat-item-name', text: sender }),
        el('time', { className: 'chat-item-time', text: formatListTime(message.date) })),
      el('span', { className: 'search-result-snippet' }, pieces)));
  }

  // MARK: filter chips

  renderChips() {
    const { from, has } = this.filters;
    const chip = (id, label, active, onToggle) => el('button', {
      type: 'button',
      className: `filter-chip${active ? ' active' : ''}`,
      id: `${this.idPrefix}-${id}`,
      'aria-pressed': String(active),
      on: { click: onToggle },
    }, label);
    const dateChip = (name, labelKey, valueKey) => {
      const value = this.filters[name];
      return el('span', { className: `filter-chip date-chip${value ? ' active' : ''}` },
        el('label', { for: `${this.idPrefix}-${name}`, text: value ? t(valueKey, { date: value }) : t(labelKey) }),
        el('input', {
          type: 'date',
          id: `${this.idPrefix}-${name}`,
          value,
          on: { change: (event) => this.setFilter(name, event.target.value) },
        }),
        value && this.removeButton(`${this.idPrefix}-${name}-remove`, t(valueKey, { date: value }), () => this.setFilter(name, '')));
    };
    replaceChildren(this.chips,
      from
        ? el('span', { className: 'filter-chip active' },
          el('span', { id: `${this.idPrefix}-from`, text: t('filterFromPerson', { name: from.displayName }) }),
          this.removeButton(`${this.idPrefix}-from-remove`, t('filterFromPerson', { name: from.displayName }), () => this.setFilter('from', null)))
        : chip('from', t('filterFrom'), false, () => this.openPicker()),
      HAS_FILTERS.map(([kind, key]) => chip(`has-${kind}`, t(key), has.has(kind), () => {
        if (!has.delete(kind)) has.add(kind);
        this.run();
      })),
      dateChip('after', 'filterAfter', 'filterAfterDate'),
      dateChip('before', 'filterBefore', 'filterBeforeDate'));
  }

  removeButton(id, name, onRemove) {
    return el('button', {
      type: 'button',
      className: 'chip-remove',
      id,
      'aria-label': t('removeFilter', { name }),
      on: { click: onRemove },
    }, icon(ICONS.close, { size: 14 }));
  }

  setFilter(name, value) {
    this.filters[name] = value;
    this.run();
    document.getElementById(`${this.idPrefix}-${name}`)?.focus();
  }

  // MARK: choosing whose messages (the people search, GET /users)

  openPicker() {
    const input = el('input', {
      type: 'search',
      className: 'search-input',
      id: `${this.idPrefix}-from-input`,
      placeholder: t('findSender'),
      'aria-label': t('findSender'),
      autocapitalize: 'none',
      spellcheck: 'false',
      on: {
        input: () => {
          clearTimeout(this.peopleTimer);
          this.peopleTimer = setTimeout(() => this.findPeople(input.value.trim()), PEOPLE_DELAY_MS);
        },
        keydown: (event) => {
          if (event.key === 'Escape') this.closePicker();
        },
      },
    });
    this.people = el('ul', { className: 'search-people', id: `${this.idPrefix}-people` });
    replaceChildren(this.picker, el('div', { className: 'search-bar' }, icon(ICONS.search, { size: 18 }), input), this.people);
    this.picker.hidden = false;
    input.focus();
    this.findPeople('');
  }

  closePicker() {
    clearTimeout(this.peopleTimer);
    this.peopleRequest += 1;
    this.picker.hidden = true;
    replaceChildren(this.picker);
    document.getElementById(`${this.idPrefix}-from`)?.focus();
  }

  async findPeople(query) {
    const request = ++this.peopleRequest;
    let people;
    try {
      people = await this.client.users(query);
    } catch (error) {
      if (request === this.peopleRequest) replaceChildren(this.people, el('li', { className: 'form-error', role: 'alert', text: errorText(error.code) }));
      return;
    }
    if (request !== this.peopleRequest) return;
    replaceChildren(this.people, people.map((person) => el('li', {},
      el('button', {
        type: 'button',
        className: 'contact-item search-person',
        dataset: { username: person.username },
        on: {
          click: () => {
            this.closePicker();
            this.setFilter('from', person);
          },
        },
      }, avatarElement(profileAvatar(person)), el('span', { className: 'chat-item-name', text: person.displayName || person.username })))));
  }

  destroy() {
    clearTimeout(this.peopleTimer);
    this.request += 1;
    this.peopleRequest += 1;
  }
}
