// Block or Unblock the other person of a direct chat (PROTOCOL.md §10.7), in the chat's info: whether they are
// blocked is asked each time it shows (it may have changed on another device); blocking asks first.
import { el, replaceChildren } from '../dom.js';
import { describeError, t } from '../strings.js';

export class BlockControl {
  /** `myData`: the client's (myData.js); `peer`: the other person's profile. */
  constructor(myData, peer) {
    this.myData = myData;
    this.peer = peer;
    this.name = peer.displayName || peer.username;
    this.element = el('div', { className: 'block-area', id: 'block-area' });
    this.load();
  }

  async load() {
    try {
      this.render(await this.myData.isBlocked(this.peer.id));
    } catch (error) {
      replaceChildren(this.element, el('p', { className: 'form-status', text: describeError(error) }));
    }
  }

  render(blocked, status = null) {
    replaceChildren(this.element,
      blocked && el('p', { className: 'form-status', id: 'blocked-note', text: t('blockedNote', { name: this.name }) }),
      el('button', {
        type: 'button', className: `button wide${blocked ? '' : ' danger'}`, id: blocked ? 'unblock-user' : 'block-user',
        text: blocked ? t('unblock') : t('block'), on: { click: () => this.setBlocked(!blocked) },
      }),
      el('p', { className: 'form-status', id: 'block-status', role: 'status', text: status ?? '' }));
  }

  async setBlocked(blocked) {
    if (blocked && !window.confirm(t('confirmBlock', { name: this.name }))) return;
    try {
      await (blocked ? this.myData.block(this.peer.id) : this.myData.unblock(this.peer.id));
      this.render(blocked);
    } catch (error) {
      this.render(!blocked, describeError(error));
    }
    this.element.querySelector('button')?.focus();
  }
}
