// The menu of a chat in the list (WeChat's long press on a chat): Pin to top or Unpin, and Mark as unread or Mark as
// read (PROTOCOL.md §7.5). It opens on a right-click or a long press (where the browser sends a context menu for it)
// at that point, and from the keyboard (the context-menu key, Shift+F10) beside the chat; ↑/↓ move between its
// items. Escape closes it and gives the focus back to the chat.
import { el, replaceChildren } from '../dom.js';
import { t } from '../strings.js';

const MENU_MARGIN_PX = 8;

export class ChatItemMenu {
  /**
   * `onPin(room, pinned)`: pin (true) or unpin (false) a room. `onMarkUnread(room, marked)`: mark it unread (true) or
   * clear the mark (false).
   */
  constructor({ onPin, onMarkUnread }) {
    this.onPin = onPin;
    this.onMarkUnread = onMarkUnread;
    this.opener = null;
    this.element = el('div', {
      className: 'message-menu chat-item-menu', role: 'menu', id: 'chat-item-menu', hidden: true, 'aria-label': t('chatActions'),
      on: { keydown: (event) => this.keyDown(event) },
    });
    this.closeOnOutsideClick = (event) => {
      if (!this.element.contains(event.target)) this.close();
    };
  }

  /** Opens for `room` at `at` ({x, y}) or, when null, under `opener` (the chat's item in the list). */
  open(room, opener, at = null) {
    this.close();
    this.opener = opener;
    replaceChildren(this.element,
      this.item(room.pinned ? 'unpin' : 'pin', room.pinned ? 'unpinChat' : 'pinChat', () => this.onPin(room, !room.pinned)),
      this.item(room.markedUnread ? 'markRead' : 'markUnread', room.markedUnread ? 'markAsRead' : 'markAsUnread',
        () => this.onMarkUnread(room, !room.markedUnread)));
    this.element.hidden = false;
    const box = opener.getBoundingClientRect();
    const menu = this.element.getBoundingClientRect();
    const left = at ? at.x : box.left + 16;
    const top = at ? at.y : box.bottom - 8;
    this.element.style.left = `${Math.max(MENU_MARGIN_PX, Math.min(left, window.innerWidth - menu.width - MENU_MARGIN_PX))}px`;
    this.element.style.top = `${Math.max(MENU_MARGIN_PX, Math.min(top, window.innerHeight - menu.height - MENU_MARGIN_PX))}px`;
    this.element.querySelector('[role="menuitem"]').focus();
    document.addEventListener('pointerdown', this.closeOnOutsideClick, true);
  }

  item(action, label, run) {
    return el('button', {
      type: 'button', role: 'menuitem', className: 'menu-item', dataset: { action }, text: t(label),
      on: {
        click: () => {
          this.close();
          run();
        },
      },
    });
  }

  keyDown(event) {
    const items = [...this.element.querySelectorAll('[role="menuitem"]')];
    const index = items.indexOf(document.activeElement);
    const moves = { ArrowDown: 1, ArrowUp: -1 };
    if (event.key in moves) {
      event.preventDefault();
      items[(index + moves[event.key] + items.length) % items.length].focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      const opener = this.opener;
      this.close();
      opener?.focus();
    } else if (event.key === 'Tab') {
      this.close();
    }
  }

  close() {
    if (this.element.hidden) return;
    this.element.hidden = true;
    this.opener = null;
    document.removeEventListener('pointerdown', this.closeOnOutsideClick, true);
  }
}
