// "Search chat history" from a chat's header, as in WeChat: a panel over the messages with a search field that
// searches this chat only (§9.7 `room`) as I type, with the filter chips of messageSearch.js. A hit closes the panel
// and the chat opens at it; Escape or × closes it where the chat was.
import { el, icon, ICONS } from '../dom.js';
import { t } from '../strings.js';
import { MessageSearch } from './messageSearch.js';

const SEARCH_DELAY_MS = 300;

export class HistorySearch {
  /** `onOpen(seq)`: a hit in this chat was chosen. */
  constructor(client, roomID, { onOpen }) {
    this.opener = null;
    this.timer = null;
    this.results = new MessageSearch(client, {
      idPrefix: 'history-search',
      roomID,
      onOpen: (message) => {
        this.close();
        onOpen(message.seq);
      },
    });
    this.input = el('input', {
      type: 'search',
      className: 'search-input',
      id: 'history-search-input',
      placeholder: t('searchThisChat'),
      'aria-label': t('searchThisChat'),
      on: {
        input: () => {
          clearTimeout(this.timer);
          this.timer = setTimeout(() => this.search(), SEARCH_DELAY_MS);
        },
        keydown: (event) => {
          if (event.key === 'Enter') {
            clearTimeout(this.timer);
            this.search();
          }
        },
      },
    });
    this.element = el('section', {
      className: 'history-search',
      id: 'history-search',
      hidden: true,
      'aria-label': t('searchChatHistory'),
      on: {
        keydown: (event) => {
          if (event.key === 'Escape' && !event.defaultPrevented) this.close();
        },
      },
    },
    el('div', { className: 'history-search-bar' },
      el('div', { className: 'search-bar' }, icon(ICONS.search, { size: 18 }), this.input),
      el('button', {
        type: 'button',
        className: 'icon-button',
        id: 'history-search-close',
        'aria-label': t('closeSearch'),
        on: { click: () => this.close() },
      }, icon(ICONS.close))),
    this.results.element);
  }

  open(opener) {
    this.opener = opener;
    this.element.hidden = false;
    this.results.renderChips();
    this.input.focus();
  }

  close() {
    if (this.element.hidden) return;
    this.element.hidden = true;
    this.opener?.focus();
  }

  search() {
    const query = this.input.value.trim();
    if (query) this.results.run(query);
    else this.results.clear();
  }

  destroy() {
    clearTimeout(this.timer);
    this.results.destroy();
  }
}
