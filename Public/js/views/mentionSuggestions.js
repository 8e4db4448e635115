// The composer's @ suggestions: typing @ and letters lists the chat's members whose username or display name has
// them, and @all where the server takes it from me (§9.10), to pick with ↑↓ and Enter or Tab (Esc closes) or with a
// click or a tap; the pick replaces what was typed with `@username `. The text box stays focused throughout and
// points at the highlighted suggestion (aria-activedescendant), as a list box of a combo box does.
import { el, replaceChildren } from '../dom.js';
import { t } from '../strings.js';
import { avatarElement, profileAvatar } from '../avatar.js';
import { typedMention } from '../mentions.js';

const SHOWN = 8;
// Who may mention everyone in a room of more members (§9.10).
const EVERYONE_LIMIT = 20;
const EVERYONE_ROLES = ['owner', 'moderator'];
const CARET_KEYS = ['ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown'];

export class MentionSuggestions {
  /** `onPick()`: the text box's text was changed by a pick (save the draft, measure it…). */
  constructor(client, roomID, textarea, { onPick }) {
    Object.assign(this, { client, roomID, textarea, onPick });
    this.choices = [];
    this.active = 0;
    this.typed = null;
    this.request = 0;
    this.element = el('ul', {
      className: 'mention-suggestions', id: 'mention-suggestions', role: 'listbox', hidden: true,
      'aria-label': t('mentionSuggestions'),
    });
    textarea.setAttribute('aria-autocomplete', 'list');
    textarea.setAttribute('aria-controls', 'mention-suggestions');
    textarea.addEventListener('blur', () => this.close());
    textarea.addEventListener('click', () => this.update()); // the caret moved: into a mention being typed, or out
  }

  get open() {
    return !this.element.hidden;
  }

  /** The text or the caret changed: suggestions for the mention being typed, or none. */
  async update() {
    const { value, selectionStart, selectionEnd } = this.textarea;
    const typed = selectionStart === selectionEnd ? typedMention(value, selectionStart) : null;
    const request = ++this.request;
    if (!typed) {
      this.close();
      return;
    }
    let members;
    try {
      members = await this.client.roomMembers(this.roomID);
    } catch {
      members = []; // unreachable: no one to suggest
    }
    if (request !== this.request) return;
    this.typed = typed;
    this.choices = this.choicesFor(typed.query.toLowerCase(), members);
    this.active = 0;
    this.render();
  }

  /** @all first (when it would mention everyone), then the members who match, by username. */
  choicesFor(query, members) {
    const room = this.client.store.rooms.get(this.roomID);
    const me = this.client.me.id;
    const everyone = room && (room.kind === 'direct' || members.length <= EVERYONE_LIMIT || EVERYONE_ROLES.includes(room.role));
    const people = members
      .filter((member) => member.id !== me)
      .filter((member) => member.username.toLowerCase().startsWith(query) || (member.displayName ?? '').toLowerCase().includes(query))
      .sort((a, b) => a.username.localeCompare(b.username))
      .map((member) => ({ username: member.username, name: member.displayName || member.username, profile: member }));
    const choices = everyone && 'all'.startsWith(query) ? [{ username: 'all', name: t('mentionEveryone'), profile: null }] : [];
    return [...choices, ...people].slice(0, SHOWN);
  }

  render() {
    if (this.choices.length === 0) {
      this.close();
      return;
    }
    replaceChildren(this.element, this.choices.map((choice, index) => el('li', {
      className: 'mention-choice',
      id: `mention-choice-${index}`,
      role: 'option',
      'aria-selected': String(index === this.active),
      dataset: { username: choice.username },
      on: {
        mousedown: (event) => event.preventDefault(), // the text box keeps the focus
        click: () => this.pick(index),
      },
    },
    choice.profile
      ? avatarElement(profileAvatar(choice.profile), { size: 'small' })
      : el('span', { className: 'avatar avatar-small mention-everyone', 'aria-hidden': 'true', text: '@' }),
    el('span', { className: 'mention-choice-name', text: choice.name }),
    el('span', { className: 'mention-choice-username', text: `@${choice.username}` }))));
    this.element.hidden = false;
    this.textarea.setAttribute('aria-activedescendant', `mention-choice-${this.active}`);
    this.element.children[this.active]?.scrollIntoView({ block: 'nearest' });
  }

  /** ↑↓ move, Enter or Tab pick, Esc closes; true when the key was the suggestions' (the composer leaves it). */
  keyDown(event) {
    if (!this.open || event.isComposing) return false;
    const count = this.choices.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      this.active = (this.active + (event.key === 'ArrowDown' ? 1 : count - 1)) % count;
      this.render();
    } else if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey) {
      this.pick(this.active);
    } else if (event.key === 'Escape') {
      this.close();
    } else {
      if (CARET_KEYS.includes(event.key)) this.close(); // the caret leaves the mention being typed
      return false;
    }
    event.preventDefault();
    event.stopPropagation();
    return true;
  }

  pick(index) {
    const choice = this.choices[index];
    if (!choice || !this.typed) return;
    const { value, selectionStart } = this.textarea;
    const inserted = `@${choice.username} `;
    this.textarea.value = value.slice(0, this.typed.start) + inserted + value.slice(selectionStart);
    this.textarea.selectionStart = this.textarea.selectionEnd = this.typed.start + inserted.length;
    this.close();
    this.textarea.focus();
    this.onPick();
  }

  close() {
    this.request += 1;
    this.typed = null;
    this.element.hidden = true;
    replaceChildren(this.element);
    this.textarea.removeAttribute('aria-activedescendant');
  }
}
