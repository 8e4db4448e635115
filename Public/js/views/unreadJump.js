// "↑ 12 unread messages": a pill at the top of a chat that opened with unread messages, shown whenever the first of
// them is above what is on screen (or not loaded yet); it brings the "Unread messages" divider back to the top.
import { el, icon, ICONS } from '../dom.js';
import { t } from '../strings.js';

export class UnreadJump {
  /** `scroller`: the message list; `jump()`: brings the divider into view (paging back to it if needed). */
  constructor(scroller, jump) {
    this.scroller = scroller;
    this.count = 0;
    this.label = el('span');
    this.element = el('button', {
      type: 'button',
      className: 'unread-jump',
      id: 'jump-to-unread',
      hidden: true,
      on: { click: () => jump() },
    }, icon(ICONS.up, { size: 16 }), this.label);
  }

  /** The chat opened with `count` unread messages (0: none). */
  start(count) {
    this.count = count;
    this.label.textContent = t('jumpToUnread', { count });
  }

  /** Shows the pill while the divider (null: not loaded) is above the screen. */
  update(divider) {
    const above = !divider || divider.offsetTop + divider.offsetHeight <= this.scroller.scrollTop;
    this.element.hidden = this.count === 0 || !above;
  }
}
