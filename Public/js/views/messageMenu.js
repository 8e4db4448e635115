// The menu of a message: quick reactions and a button for any other emoji, then Reply, Copy, and Edit/Delete for
// my own messages. Keyboard-usable:
// arrow keys move between items, Escape closes and returns focus to the button that opened it.
import { el, icon, ICONS, replaceChildren } from '../dom.js';
import { t } from '../strings.js';

export const QUICK_REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏'];
const MENU_MARGIN_PX = 8;

export class MessageMenu {
  constructor({ onReact, onMoreReactions, onReply, onCopy, onEdit, onDelete }) {
    Object.assign(this, { onReact, onMoreReactions, onReply, onCopy, onEdit, onDelete });
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

  open(message, opener, mine) {
    this.close();
    this.opener = opener;
    const act = (handler) => () => {
      this.close();
      handler(message);
    };
    replaceChildren(this.element,
      el('div', { className: 'menu-reactions' }, QUICK_REACTIONS.map((emoji) => el('button', {
        type: 'button',
        role: 'menuitem',
        className: 'menu-reaction',
        text: emoji,
        'aria-label': t('react', { emoji }),
        on: { click: () => { this.close(); this.onReact(message, emoji); } },
      })), el('button', {
        type: 'button',
        role: 'menuitem',
        className: 'menu-reaction more-reactions',
        id: 'more-reactions',
        'aria-label': t('moreReactions'),
        'aria-haspopup': 'dialog',
        on: {
          click: () => {
            const opener = this.opener;
            this.close();
            this.onMoreReactions(message, opener);
          },
        },
      }, icon(ICONS.plus, { size: 20 }))),
      el('button', { type: 'button', role: 'menuitem', className: 'menu-item', dataset: { action: 'reply' }, text: t('reply'), on: { click: act(this.onReply) } }),
      message.text && el('button', { type: 'button', role: 'menuitem', className: 'menu-item', dataset: { action: 'copy' }, text: t('copy'), on: { click: act(this.onCopy) } }),
      mine && message.text && el('button', { type: 'button', role: 'menuitem', className: 'menu-item', dataset: { action: 'edit' }, text: t('edit'), on: { click: act(this.onEdit) } }),
      mine && el('button', { type: 'button', role: 'menuitem', className: 'menu-item danger', dataset: { action: 'delete' }, text: t('delete'), on: { click: act(this.onDelete) } }),
    );
    this.element.hidden = false;
    opener.setAttribute('aria-expanded', 'true');
    this.position(opener);
    this.items()[0]?.focus();
    document.addEventListener('pointerdown', this.closeOnOutsideClick, true);
  }

  /** Places the menu beside its button, inside the window. */
  position(opener) {
    const anchor = opener.getBoundingClientRect();
    const menu = this.element.getBoundingClientRect();
    const left = Math.min(Math.max(MENU_MARGIN_PX, anchor.right - menu.width), window.innerWidth - menu.width - MENU_MARGIN_PX);
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

  /** Closes the menu if its message was rebuilt or removed (the message it acts on may have changed). */
  closeIfDetached() {
    if (this.opener && !this.opener.isConnected) this.close();
  }

  close() {
    if (this.element.hidden) return;
    this.element.hidden = true;
    this.opener?.setAttribute('aria-expanded', 'false');
    this.opener = null;
    document.removeEventListener('pointerdown', this.closeOnOutsideClick, true);
  }
}
