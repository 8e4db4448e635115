// The menu of a message: quick reactions and a button for any other emoji, then its actions (see ACTIONS). It opens
// from the message's "…" button, a right-click, a long press or the context-menu key, beside the button or where the
// message was pressed. Keyboard-usable: arrow keys move between items, Escape closes and returns the focus.
import { el, icon, ICONS, replaceChildren } from '../dom.js';
import { t } from '../strings.js';

export const QUICK_REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏'];
const MENU_MARGIN_PX = 8;

/**
 * Every action the menu can offer, in order: `shows(message, {mine, moderates, mayPin})` says whether it applies to a
 * message (`moderates`: I may delete others' messages in this chat, §7.3; `mayPin`: I may pin messages here). An
 * action shows only when the chat handles it.
 */
const ACTIONS = [
  { id: 'reply', label: 'reply', shows: () => true },
  { id: 'copy', label: 'copy', shows: (message) => Boolean(message.text) },
  { id: 'forward', label: 'forward', shows: () => true },
  { id: 'edit', label: 'edit', shows: (message, { mine }) => mine && Boolean(message.text) },
  { id: 'removePreview', label: 'removePreview', shows: (message, { mine }) => mine && Boolean(message.preview) },
  { id: 'select', label: 'selectMessages', shows: () => true },
  { id: 'pin', label: 'pinMessage', shows: (message, { mayPin }) => mayPin && !message.pinned },
  { id: 'unpin', label: 'unpinMessage', shows: (message, { mayPin }) => mayPin && message.pinned === true },
  { id: 'report', label: 'report', shows: (message, { mine }) => !mine },
  { id: 'delete', label: 'delete', danger: true, shows: (message, { mine }) => mine },
  { id: 'remove', label: 'removeMessage', danger: true, shows: (message, { mine, moderates }) => !mine && moderates },
];

export class MessageMenu {
  /**
   * `handlers`: {react(message, emoji), moreReactions(message, opener), and one per action id (reply, copy, edit,
   * select, delete…) taking the message}.
   */
  constructor({ handlers }) {
    this.handlers = handlers;
    this.opener = null;
    this.element = el('div', {
      className: 'message-menu',
      role: 'menu',
      id: 'message-menu',
      hidden: true,
      'aria-label': t('messageActions'),
      on: { keydown: (event) => this.keyDown(event) },
    });
    this.closeOnOutsideClick = (event) => {
      if (!this.element.contains(event.target) && event.target !== this.opener) this.close();
    };
  }

  /**
   * Opens for `message`; the focus returns to `opener` on Escape. It shows beside `anchor` (a DOMRect: the opener's
   * unless given), or at it when it is a point (no width: where a right-click happened). `mine`: the message is mine;
   * `moderates`: I may delete others' messages here; `mayPin`: I may pin messages here.
   */
  open(message, { opener, mine, moderates = false, mayPin = false, anchor = opener.getBoundingClientRect() }) {
    this.close();
    this.opener = opener;
    const actions = ACTIONS.filter((action) => this.handlers[action.id] && action.shows(message, { mine, moderates, mayPin }));
    replaceChildren(this.element,
      el('div', { className: 'menu-reactions' }, QUICK_REACTIONS.map((emoji) => el('button', {
        type: 'button',
        role: 'menuitem',
        className: 'menu-reaction',
        text: emoji,
        'aria-label': t('react', { emoji }),
        on: { click: () => { this.close(); this.handlers.react(message, emoji); } },
      })), el('button', {
        type: 'button',
        role: 'menuitem',
        className: 'menu-reaction more-reactions',
        id: 'more-reactions',
        'aria-label': t('moreReactions'),
        'aria-haspopup': 'dialog',
        on: {
          click: () => {
            const returnTo = this.opener;
            this.close();
            this.handlers.moreReactions(message, returnTo);
          },
        },
      }, icon(ICONS.plus, { size: 20 }))),
      actions.map((action) => el('button', {
        type: 'button',
        role: 'menuitem',
        className: `menu-item${action.danger ? ' danger' : ''}`,
        dataset: { action: action.id },
        text: t(action.label),
        on: {
          click: () => {
            this.close();
            this.handlers[action.id](message);
          },
        },
      })));
    this.element.hidden = false;
    if (opener.hasAttribute('aria-haspopup')) opener.setAttribute('aria-expanded', 'true');
    this.position(anchor);
    this.items()[0]?.focus();
    document.addEventListener('pointerdown', this.closeOnOutsideClick, true);
  }

  /** Places the menu inside the window: from a point rightwards, under a box with their right edges lined up. */
  position(anchor) {
    const menu = this.element.getBoundingClientRect();
    const start = anchor.width === 0 ? anchor.left : anchor.right - menu.width;
    const left = Math.min(Math.max(MENU_MARGIN_PX, start), window.innerWidth - menu.width - MENU_MARGIN_PX);
    const below = anchor.bottom + 4;
    const top = below + menu.height > window.innerHeight - MENU_MARGIN_PX ? anchor.top - menu.height - 4 : below;
    this.element.style.left = `${left}px`;
    this.element.style.top = `${Math.max(MENU_MARGIN_PX, top)}px`;
  }

  items() {
    return [...this.element.querySelectorAll('[role="menuitem"]')];
  }

  keyDown(event) {
    const items = this.items();
    const index = items.indexOf(document.activeElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      const opener = this.opener;
      this.close();
      opener?.focus();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowRight') {
      event.preventDefault();
      items[(index + 1) % items.length]?.focus();
    } else if (event.key === 'ArrowUp' || event.key === 'ArrowLeft') {
      event.preventDefault();
      items[(index - 1 + items.length) % items.length]?.focus();
    } else if (event.key === 'Tab') {
      this.close();
    }
  }

  isOpenFor(opener) {
    return !this.element.hidden && this.opener === opener;
  }

  /** Closes the menu if its message was rebuilt or removed (the message it acts on may have changed). */
  closeIfDetached() {
    if (this.opener && !this.opener.isConnected) this.close();
  }

  close() {
    if (this.element.hidden) return;
    this.element.hidden = true;
    if (this.opener?.hasAttribute('aria-haspopup')) this.opener.setAttribute('aria-expanded', 'false');
    this.opener = null;
    document.removeEventListener('pointerdown', this.closeOnOutsideClick, true);
  }
}
