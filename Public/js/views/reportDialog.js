// Reporting someone's message to the chat's moderators (PROTOCOL.md §7.4): a small dialog asks for the reason, then a
// note says "Reported" (or that I reported it before). A refusal stays in the dialog, under the field.
import { el, icon, ICONS, replaceChildren } from '../dom.js';
import { describeError, t } from '../strings.js';
import { messageSummary } from './preview.js';
import { showToast } from './toast.js';

const MAX_REASON = 500;

export class ReportDialog {
  /** `nameOf(person)`: how the chat names someone. */
  constructor(client, roomID, nameOf) {
    Object.assign(this, { client, roomID, nameOf });
    this.opener = null;
    this.message = null;
    this.body = el('form', { className: 'dialog-body report-form', id: 'report-form', noValidate: true, on: { submit: (event) => this.submit(event) } });
    this.element = el('dialog', {
      className: 'room-info report-dialog',
      id: 'report-dialog',
      'aria-labelledby': 'report-title',
      on: { close: () => this.opener?.focus?.() },
    }, this.body);
  }

  open(message, opener) {
    this.message = message;
    this.opener = opener;
    this.reason = el('textarea', {
      id: 'report-reason', className: 'text-input report-reason', rows: '3', maxlength: String(MAX_REASON), required: true,
      'aria-label': t('reportReason'), placeholder: t('reportReason'), 'aria-describedby': 'report-hint report-error',
    });
    this.error = el('p', { className: 'form-error', id: 'report-error', role: 'alert' });
    this.submitButton = el('button', { type: 'submit', className: 'button primary', id: 'report-submit', text: t('report') });
    replaceChildren(this.body,
      el('header', { className: 'dialog-header' },
        el('h2', { className: 'dialog-title', id: 'report-title', text: t('reportTitle') }),
        el('button', { type: 'button', className: 'icon-button dialog-close', 'aria-label': t('close'), on: { click: () => this.close() } }, icon(ICONS.close))),
      el('blockquote', { className: 'report-quote' },
        el('span', { className: 'quote-sender', text: this.nameOf(message.sender) }),
        el('span', { className: 'quote-text', text: messageSummary(message) })),
      el('p', { className: 'group-note report-hint', id: 'report-hint', text: t('reportHint') }),
      this.reason,
      this.error,
      el('div', { className: 'dialog-actions' },
        el('button', { type: 'button', className: 'button', id: 'report-cancel', text: t('cancel'), on: { click: () => this.close() } }),
        this.submitButton));
    if (!this.element.open) this.element.showModal();
    this.reason.focus();
  }

  close() {
    if (this.element.open) this.element.close();
  }

  async submit(event) {
    event.preventDefault();
    const reason = this.reason.value.trim();
    if (!reason) {
      this.error.textContent = t('reportReason');
      this.reason.focus();
      return;
    }
    this.error.textContent = '';
    this.submitButton.disabled = true;
    try {
      const { created } = await this.client.moderation.report(this.roomID, this.message.seq, reason);
      this.close();
      showToast(created ? t('reported') : t('alreadyReported'));
    } catch (error) {
      this.error.textContent = describeError(error);
      this.reason.focus();
    } finally {
      this.submitButton.disabled = false;
    }
  }
}
