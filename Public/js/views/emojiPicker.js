// A pop-up grid of emoji (recent ones first), for the composer and for reactions. Arrow keys move in the grid,
// Enter picks, Escape closes and gives focus back to the button that opened it. One picker serves a chat screen.
import { el, replaceChildren } from '../dom.js';
import { t } from '../strings.js';
import { EMOJI_GROUPS, recentEmoji, useEmoji } from '../emoji.js';

const COLUMNS = 8;
const MARGIN_PX = 8;

export class EmojiPicker {
  constructor() {
    this.opener = null;
    this.onPick = null;
    this.element = el('div', {
      className: 'emoji-picker',
      id: 'emoji-picker',
      role: 'dialog',
      'aria-label': t('emojiPicker'),
      hidden: true,
      on: { keydown: (event) => this.keyDown(event) },
    });
    this.closeOnOutsideClick = (event) => {
      if (!this.element.contains(event.target) && !this.opener?.contains(event.target)) this.close();
    };
  }

  /** Opens beside `opener`; `onPick(emoji)` gets the chosen one. */
  open(opener, onPick) {
    if (!this.element.hidden && this.opener === opener) {
      this.close();
      return;
    }
    this.close();
    this.opener = opener;
    this.onPick = onPick;
    const recent = recentEmoji();
    const groups = recent.length ? [{ name: 'recent', emoji: recent }, ...EMOJI_GROUPS] : EMOJI_GROUPS;
    replaceChildren(this.element, groups.map((group) => el('section', { className: 'emoji-group' },
      el('h3', { className: 'emoji-group-title', id: `emoji-group-${group.name}`, text: t(`emojiGroup_${group.name}`) }),
      el('div', { className: 'emoji-grid', role: 'group', 'aria-labelledby': `emoji-group-${group.name}` },
        group.emoji.map((emoji) => el('button', {
          type: 'button',
          className: 'emoji-choice',
          tabindex: '-1',
          text: emoji,
          'aria-label': emoji,
          on: { click: () => this.pick(emoji) },
        }))))));
    this.element.hidden = false;
    opener.setAttribute('aria-expanded', 'true');
    this.position(opener);
    const first = this.buttons()[0];
    if (first) {
      first.tabIndex = 0;
      first.focus();
    }
    document.addEventListener('pointerdown', this.closeOnOutsideClick, true);
  }

  pick(emoji) {
    const onPick = this.onPick;
    const opener = this.opener;
    useEmoji(emoji);
    this.close();
    opener?.focus();
    onPick?.(emoji);
  }

  buttons() {
    return [...this.element.querySelectorAll('.emoji-choice')];
  }

  position(opener) {
    const anchor = opener.getBoundingClientRect();
    const box = this.element.getBoundingClientRect();
    const left = Math.min(Math.max(MARGIN_PX, anchor.left), window.innerWidth - box.width - MARGIN_PX);
    const above = anchor.top - box.height - 4;
    const top = above >= MARGIN_PX ? above : Math.min(anchor.bottom + 4, window.innerHeight - box.height - MARGIN_PX);
    this.element.style.left = `${Math.max(MARGIN_PX, left)}px`;
    this.element.style.top = `${Math.max(MARGIN_PX, top)}px`;
  }

  keyDown(event) {
    const buttons = this.buttons();
    const index = buttons.indexOf(document.activeElement);
    const moves = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: COLUMNS, ArrowUp: -COLUMNS };
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      const opener = this.opener;
      this.close();
      opener?.focus();
    } else if (event.key in moves && index >= 0) {
      event.preventDefault();
      const next = buttons[Math.min(buttons.length - 1, Math.max(0, index + moves[event.key]))];
      buttons[index].tabIndex = -1;
      next.tabIndex = 0;
      next.focus();
    } else if (event.key === 'Tab') {
      this.close();
    }
  }

  close() {
    if (this.element.hidden) return;
    this.element.hidden = true;
    this.opener?.setAttribute('aria-expanded', 'false');
    this.opener = null;
    this.onPick = null;
    document.removeEventListener('pointerdown', this.closeOnOutsideClick, true);
  }
}
