// Me → Mentions of me (PROTOCOL.md §9.10): the messages that mention me (by name or @all) in the chats I am in,
// newest first, a page at a time; each opens its chat at the message.
import { el, replaceChildren } from '../dom.js';
import { describeError, t } from '../strings.js';
import { formatListTime } from '../time.js';
import { chatPath, navigate } from '../router.js';
import { messageSummary } from './preview.js';

const PAGE = 20;

export class MentionsListView {
  constructor(client) {
    this.client = client;
    this.store = client.store;
    this.next = null;
    this.list = el('ul', { className: 'search-results mentions-list', id: 'mentions-list', 'aria-label': t('mentionsTitle') });
    this.status = el('p', { className: 'form-status', id: 'mentions-status', role: 'status' });
    this.moreButton = el('button', {
      type: 'button', className: 'search-messages-button', id: 'mentions-more', text: t('olderMentions'), hidden: true,
      on: { click: () => this.load() },
    });
    this.element = el('div', { className: 'me-view mentions-view' },
      el('section', { className: 'settings-group' }, this.list, this.moreButton, this.status));
    this.load();
  }

  async load() {
    this.moreButton.disabled = true;
    this.status.textContent = '';
    try {
      const page = await this.client.mentionsPage({ before: this.next, limit: PAGE });
      this.list.append(...page.messages.map((message) => this.renderMention(message)));
      this.next = page.next ?? null;
      if (this.list.children.length === 0) replaceChildren(this.list, el('li', { className: 'empty-note', text: t('noMentions') }));
    } catch (error) {
      this.status.textContent = describeError(error);
    } finally {
      this.moreButton.disabled = false;
      this.moreButton.hidden = this.next === null;
    }
  }

  /** Who said it and where (the chat's name unless it is the sender's own), when, and what. */
  renderMention(message) {
    const room = this.store.rooms.get(message.room);
    const sender = this.store.displayName(message.sender?.id, message.sender?.name ?? '');
    const label = !room || room.kind === 'direct' ? sender : `${sender} · ${room.name}`;
    return el('li', {},
      el('button', {
        type: 'button',
        className: 'search-result mention-result',
        dataset: { room: message.room, seq: String(message.seq) },
        on: { click: () => navigate(chatPath(message.room, message.seq)) },
      },
      el('span', { className: 'search-result-top' },
        el('span', { className: 'chat-item-name', text: label }),
        el('time', { className: 'chat-item-time', text: formatListTime(message.date) })),
      el('span', { className: 'search-result-snippet', text: messageSummary(message) })));
  }

  destroy() {}
}
