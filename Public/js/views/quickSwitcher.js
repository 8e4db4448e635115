// Ctrl+K (⌘K on a Mac) from anywhere: a box that finds a chat by name as you type, newest activity first; ↑/↓ move,
// Enter opens, Escape (or the focus leaving it) closes. A modal dialog holding a combobox with its listbox (the
// WAI-ARIA 1.1 pattern, which every screen reader and the axe the tests run know): the focus stays in the box.
import { el, replaceChildren } from '../dom.js';
import { t } from '../strings.js';
import { avatarElement, roomAvatar } from '../avatar.js';
import { chatPath, navigate } from '../router.js';

const MOST_SHOWN = 8;

export class QuickSwitcher {
  constructor(store) {
    this.store = store;
    this.matches = [];
    this.active = 0;
    this.input = el('input', {
      type: 'text',
      className: 'text-input',
      id: 'quick-switcher-input',
      autocapitalize: 'none',
      spellcheck: 'false',
      'aria-autocomplete': 'list',
      'aria-controls': 'quick-switcher-list',
      'aria-label': t('quickSwitcher'),
      placeholder: t('quickSwitcherPlaceholder'),
      on: { input: () => this.filter(), keydown: (event) => this.keyDown(event) },
    });
    this.list = el('ul', { className: 'quick-switcher-list', id: 'quick-switcher-list', role: 'listbox', 'aria-label': t('tabChats') });
    this.dialog = el('div', {
      className: 'quick-switcher',
      id: 'quick-switcher',
      role: 'dialog',
      'aria-modal': 'true',
      'aria-label': t('quickSwitcher'),
      on: { focusout: (event) => { if (!this.dialog.contains(event.relatedTarget)) this.close(); } },
    },
    el('div', { role: 'combobox', 'aria-expanded': 'true', 'aria-owns': 'quick-switcher-list', 'aria-haspopup': 'listbox' }, this.input),
    this.list);
    this.element = el('div', {
      className: 'quick-switcher-backdrop',
      hidden: true,
      on: {
        click: (event) => { if (event.target === this.element) this.close(); },
        keydown: (event) => {
          if (event.key !== 'Escape') return;
          event.preventDefault();
          this.close();
        },
      },
    }, this.dialog);
  }

  /** Whether a key press is the shortcut: Ctrl+K, or ⌘K on a Mac. */
  static isShortcut(event) {
    return (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k';
  }

  open() {
    this.returnFocusTo = document.activeElement;
    this.input.value = '';
    this.filter();
    this.element.hidden = false;
    this.input.focus();
  }

  close() {
    if (this.element.hidden) return;
    this.element.hidden = true;
    if (this.returnFocusTo?.isConnected) this.returnFocusTo.focus();
  }

  filter() {
    const needle = this.input.value.trim().toLocaleLowerCase();
    this.matches = this.store.sortedRooms()
      .filter((room) => !needle || room.name.toLocaleLowerCase().includes(needle)
        || room.peer?.username?.toLocaleLowerCase().includes(needle))
      .slice(0, MOST_SHOWN);
    this.active = 0;
    this.render();
  }

  render() {
    if (this.matches.length === 0) {
      this.input.removeAttribute('aria-activedescendant');
      replaceChildren(this.list, el('li', { className: 'empty-note', role: 'presentation', text: t('noChatFound') }));
      return;
    }
    replaceChildren(this.list, this.matches.map((room, index) => el('li', {
      className: 'quick-switcher-option',
      id: `quick-switcher-option-${index}`,
      role: 'option',
      'aria-selected': String(index === this.active),
      dataset: { roomId: room.id },
      on: {
        // Keeps the focus in the box, where the keyboard works.
        mousedown: (event) => event.preventDefault(),
        click: () => this.choose(room),
      },
    }, avatarElement(roomAvatar(room), { size: 'small' }), el('span', { className: 'chat-item-name', text: room.name }))));
    this.input.setAttribute('aria-activedescendant', `quick-switcher-option-${this.active}`);
  }

  keyDown(event) {
    const moves = { ArrowDown: 1, ArrowUp: -1 };
    if (event.key in moves && this.matches.length) {
      event.preventDefault();
      this.active = (this.active + moves[event.key] + this.matches.length) % this.matches.length;
      this.render();
    } else if (event.key === 'Enter' && this.matches[this.active]) {
      event.preventDefault();
      this.choose(this.matches[this.active]);
    }
  }

  choose(room) {
    this.returnFocusTo = null; // the chat takes the focus
    this.close();
    navigate(chatPath(room.id));
  }
}
