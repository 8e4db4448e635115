// Selecting several messages (the message menu's "Select"): each message shows a checkbox, a click or tap on a
// message toggles it, and a bar in the composer's place copies the selection, forwards it or recalls it (only my own
// messages can be recalled). Escape or Cancel ends it.
import { el, icon, ICONS } from '../dom.js';
import { t } from '../strings.js';

export class MessageSelection {
  /**
   * onChange(): the selection started, changed or ended (the chat shows it).
   * onCopy(seqs), onForward(seqs), onRecall(seqs): the bar's actions, with the selected seqs in order.
   * canRecall(seqs): whether every selected message may be recalled.
   */
  constructor({ onChange, onCopy, onForward, onRecall, canRecall }) {
    Object.assign(this, { onChange, canRecall });
    this.seqs = null; // null while not selecting
    this.count = el('span', { className: 'selection-count', id: 'selection-count', role: 'status' });
    this.recallButton = el('button', {
      type: 'button', className: 'button danger', id: 'selection-recall', text: t('delete'),
      on: { click: () => onRecall(this.selected()) },
    });
    this.copyButton = el('button', {
      type: 'button', className: 'button', id: 'selection-copy', text: t('copy'),
      on: { click: () => onCopy(this.selected()) },
    });
    this.forwardButton = el('button', {
      type: 'button', className: 'button', id: 'selection-forward', text: t('forward'),
      on: { click: () => onForward(this.selected()) },
    });
    this.element = el('div', { className: 'selection-bar', id: 'selection-bar', role: 'toolbar', 'aria-label': t('selection'), hidden: true },
      el('button', { type: 'button', className: 'icon-button', id: 'selection-cancel', 'aria-label': t('cancel'), on: { click: () => this.end() } },
        icon(ICONS.close)),
      this.count, this.copyButton, this.forwardButton, this.recallButton);
  }

  get active() {
    return this.seqs !== null;
  }

  has(seq) {
    return this.seqs?.has(seq) ?? false;
  }

  selected() {
    return [...(this.seqs ?? [])].sort((a, b) => a - b);
  }

  start(seq) {
    this.seqs = new Set([seq]);
    this.changed();
  }

  toggle(seq) {
    if (!this.seqs) return;
    if (!this.seqs.delete(seq)) this.seqs.add(seq);
    this.changed();
  }

  end() {
    if (!this.seqs) return;
    this.seqs = null;
    this.changed();
  }

  changed() {
    this.element.hidden = !this.active;
    if (this.active) {
      const seqs = this.selected();
      this.count.textContent = t('selectedCount', { count: seqs.length });
      this.copyButton.disabled = seqs.length === 0;
      this.forwardButton.disabled = seqs.length === 0;
      this.recallButton.disabled = seqs.length === 0 || !this.canRecall(seqs);
    }
    this.onChange();
  }
}
