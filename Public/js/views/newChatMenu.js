// The ⊕ at the top of the Chats tab (WeChat's "+"): a menu of New chat, New group and Add contact, each opening the
// people picker. Keyboard-usable: ↑/↓ move, Escape closes and gives the focus back to ⊕.
import { el, icon, ICONS, replaceChildren } from '../dom.js';
import { t } from '../strings.js';
import { PeoplePicker } from './peoplePicker.js';

const CHOICES = [
  { mode: 'chat', label: 'newChat' },
  { mode: 'group', label: 'newGroup' },
  { mode: 'contact', label: 'addContact' },
];

export class NewChatMenu {
  constructor(client) {
    this.picker = new PeoplePicker(client);
    this.button = el('button', {
      type: 'button',
      className: 'icon-button new-chat-button',
      id: 'new-chat-button',
      'aria-label': t('newMenu'),
      'aria-haspopup': 'menu',
      'aria-expanded': 'false',
      'aria-controls': 'new-chat-menu',
      on: { click: () => (this.menu.hidden ? this.open() : this.close()) },
    }, icon(ICONS.newChat));
    this.menu = el('div', {
      className: 'popup-menu',
      id: 'new-chat-menu',
      role: 'menu',
      'aria-label': t('newMenu'),
      hidden: true,
      on: { keydown: (event) => this.keyDown(event) },
    });
    // The picker's dialog is placed by the shell, which shows it from the Contacts tab too.
    this.element = el('div', { className: 'new-chat' }, this.button, this.menu);
    this.closeOnOutsideClick = (event) => {
      if (!this.element.contains(event.target)) this.close();
    };
  }

  open() {
    replaceChildren(this.menu, CHOICES.map(({ mode, label }) => el('button', {
      type: 'button',
      role: 'menuitem',
      className: 'menu-item',
      dataset: { mode },
      text: t(label),
      on: {
        click: () => {
          this.close();
          this.picker.open(mode, this.button);
        },
      },
    })));
    this.menu.hidden = false;
    this.button.setAttribute('aria-expanded', 'true');
    this.items()[0].focus();
    document.addEventListener('pointerdown', this.closeOnOutsideClick, true);
  }

  close() {
    if (this.menu.hidden) return;
    this.menu.hidden = true;
    this.button.setAttribute('aria-expanded', 'false');
    document.removeEventListener('pointerdown', this.closeOnOutsideClick, true);
  }

  items() {
    return [...this.menu.querySelectorAll('[role="menuitem"]')];
  }

  keyDown(event) {
    const items = this.items();
    const index = items.indexOf(document.activeElement);
    const moves = { ArrowDown: 1, ArrowUp: -1 };
    if (event.key === 'Escape') {
      event.preventDefault();
      this.close();
      this.button.focus();
    } else if (event.key in moves) {
      event.preventDefault();
      items[(index + moves[event.key] + items.length) % items.length].focus();
    } else if (event.key === 'Tab') {
      this.close();
    }
  }
}
