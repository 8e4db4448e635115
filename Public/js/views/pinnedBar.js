// The pinned bar at the top of a chat, under its header, while the chat has pinned messages (as WeChat and Telegram
// show them): one pinned message's sender and the start of its text on one line, "1 of 3" when there are several,
// and ✕ to unpin it for those who may. Pressing it brings that message into view and shows the next pin, so
// pressing again walks through them all, from the most recently pinned.
import { el, icon, ICONS } from '../dom.js';
import { t } from '../strings.js';
import { messageSummary } from './preview.js';
import { setMessagePinned } from './pinMessage.js';

export class PinnedBar {
  /** `onJump(seq)`: bring that message into view (loading its page when it is not loaded). */
  constructor(client, roomID, { onJump }) {
    Object.assign(this, { client, roomID, onJump });
    this.shownSeq = null; // the pin shown: it stays while others come and go, until a new one is pinned
    this.knownSeqs = new Set(); // the pins of the last render
    this.title = el('span', { className: 'pinned-bar-title', id: 'pinned-bar-title' });
    this.text = el('span', { className: 'pinned-bar-text', id: 'pinned-bar-text' });
    this.openButton = el('button', {
      type: 'button',
      className: 'pinned-bar-open',
      id: 'pinned-bar-open',
      on: { click: () => this.jump() },
    }, icon(ICONS.pin, { size: 18 }), el('span', { className: 'pinned-bar-lines' }, this.title, this.text));
    this.unpinButton = el('button', {
      type: 'button',
      className: 'icon-button pinned-bar-unpin',
      id: 'pinned-bar-unpin',
      'aria-label': t('unpinShown'),
      title: t('unpinShown'),
      on: { click: () => this.unpinShown() },
    }, icon(ICONS.close, { size: 18 }));
    this.element = el('div', {
      className: 'pinned-bar',
      id: 'pinned-bar',
      role: 'region',
      'aria-label': t('pinnedMessages'),
      hidden: true,
    }, this.openButton, this.unpinButton);
    const { store } = client;
    this.unsubscribers = [`pins:${roomID}`, 'rooms', 'profiles'].map((topic) => store.on(topic, () => this.render()));
  }

  /** Reads the chat's pinned messages (the events keep them current from then on). */
  start() {
    this.render();
    this.client.pinnedMessages.load(this.roomID).catch(() => {}); // unreachable: asked again when connected
  }

  pins() {
    return this.client.pinnedMessages.list(this.roomID);
  }

  /** The pin the bar shows: the one it showed while it is still pinned, else the most recent. */
  shown() {
    const pins = this.pins();
    return pins.find((message) => message.seq === this.shownSeq) ?? pins[0] ?? null;
  }

  render() {
    const pins = this.pins();
    if (pins.length && !this.knownSeqs.has(pins[0].seq)) this.shownSeq = pins[0].seq; // a new pin shows at once
    this.knownSeqs = new Set(pins.map((pin) => pin.seq));
    const message = this.shown();
    this.element.hidden = !message;
    if (!message) return;
    this.shownSeq = message.seq;
    const position = pins.indexOf(message) + 1;
    this.title.textContent = pins.length > 1
      ? `${t('pinnedMessage')} · ${t('pinnedPosition', { index: position, count: pins.length })}`
      : t('pinnedMessage');
    const { store } = this.client;
    const sender = message.sender?.id === store.me.id ? t('you') : store.displayName(message.sender?.id, message.sender?.name ?? '');
    this.text.textContent = `${sender}: ${messageSummary(message)}`;
    this.unpinButton.hidden = !this.client.mayPinIn(this.roomID);
  }

  /** Brings the shown pin into view and shows the next (after the oldest, the most recent again). */
  jump() {
    const pins = this.pins();
    const message = this.shown();
    if (!message) return;
    this.shownSeq = pins[(pins.indexOf(message) + 1) % pins.length].seq;
    this.render();
    this.onJump(message.seq);
  }

  unpinShown() {
    const message = this.shown();
    if (message) setMessagePinned(this.client, this.roomID, message.seq, false);
  }

  destroy() {
    this.unsubscribers.forEach((unsubscribe) => unsubscribe());
  }
}
