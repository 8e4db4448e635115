// Administration → Invitations (PROTOCOL.md §10.4): a new invitation, with at most so many uses and a lifetime in
// hours if wanted, and every invitation made, newest first, with its link to copy, how much it was used and when
// it expires, and Revoke.
import { el, replaceChildren } from '../dom.js';
import { t } from '../strings.js';
import { formatDateTime } from '../time.js';
import { adminErrorText } from './adminList.js';
import { copyField } from './copyField.js';

// The ranges the server accepts (§10.4).
const MAX_USES = 1000;
const MAX_HOURS = 8760;

export class AdminInvitesView {
  constructor(client) {
    this.administration = client.administration;
    const numberField = (id, label, max) => el('label', { className: 'number-field', for: id },
      el('span', { text: label }),
      el('input', { type: 'number', id, className: 'text-input', min: '1', max: String(max), step: '1', inputmode: 'numeric' }));
    this.formStatus = el('p', { className: 'form-status', id: 'invite-form-status', role: 'status' });
    this.createButton = el('button', { type: 'submit', className: 'button primary', id: 'create-invite', text: t('create') });
    this.list = el('ul', { className: 'admin-list', id: 'admin-invites', 'aria-labelledby': 'invites-title', tabindex: '-1' });
    this.listStatus = el('p', { className: 'list-note', id: 'admin-invites-status', role: 'status' });
    this.form = el('form', {
      className: 'settings-group invite-create', id: 'invite-create-form', 'aria-labelledby': 'new-invite-title', noValidate: true,
      on: { submit: (event) => this.create(event) },
    },
    el('h2', { className: 'section-title', id: 'new-invite-title', text: t('newInvitation') }),
    el('div', { className: 'invite-fields' },
      numberField('invite-max-uses', t('maxUses'), MAX_USES),
      numberField('invite-expires', t('expiresInHours'), MAX_HOURS),
      this.createButton),
    this.formStatus);
    this.element = el('div', { className: 'me-view admin-view' },
      this.form,
      el('section', { className: 'settings-group', 'aria-labelledby': 'invites-title' },
        el('h2', { className: 'section-title', id: 'invites-title', text: t('adminInvites') }),
        this.list,
        this.listStatus));
    this.load();
  }

  async load() {
    this.listStatus.textContent = t('loading');
    try {
      const invites = await this.administration.invites();
      replaceChildren(this.list, invites.map((invite) => this.inviteRow(invite)));
      this.listStatus.textContent = invites.length === 0 ? t('noInvitations') : '';
    } catch (error) {
      this.listStatus.textContent = adminErrorText(error);
    }
  }

  inviteRow(invite) {
    const uses = invite.maxUses ? t('inviteUses', { uses: invite.uses, max: invite.maxUses }) : t('inviteUsesUnlimited', { uses: invite.uses });
    const expiry = !invite.expiresAt ? t('inviteNoExpiry')
      : invite.expiresAt <= Date.now() ? t('inviteExpired') : t('inviteExpires', { time: formatDateTime(invite.expiresAt) });
    const fieldID = `invite-${invite.code}`;
    return el('li', { className: 'invite-row', dataset: { code: invite.code } },
      copyField({ id: fieldID, label: t('invitationLink'), value: invite.url }),
      el('div', { className: 'invite-meta' },
        el('span', { className: 'admin-row-detail', text: `${formatDateTime(invite.createdAt)} · ${uses} · ${expiry}` }),
        el('button', {
          type: 'button', className: 'link-button danger-link revoke-invite', text: t('revokeInvite'), 'aria-describedby': fieldID,
          on: { click: () => this.revoke(invite) },
        })));
  }

  async create(event) {
    event.preventDefault();
    const maxUses = wholeNumber(this.form.querySelector('#invite-max-uses'), MAX_USES);
    const expiresInHours = wholeNumber(this.form.querySelector('#invite-expires'), MAX_HOURS);
    if (maxUses === undefined || expiresInHours === undefined) {
      this.formStatus.textContent = t('error_invalid_body');
      return;
    }
    this.formStatus.textContent = '';
    this.createButton.disabled = true;
    try {
      const invite = await this.administration.createInvite({ maxUses, expiresInHours });
      this.form.reset();
      await this.load();
      this.formStatus.textContent = t('invitationCreated');
      this.list.querySelector(`[data-code="${CSS.escape(invite.code)}"] .copy-field button`)?.focus();
    } catch (error) {
      this.formStatus.textContent = adminErrorText(error);
    } finally {
      this.createButton.disabled = false;
    }
  }

  async revoke(invite) {
    if (!window.confirm(t('confirmRevokeInvite'))) return;
    try {
      await this.administration.revokeInvite(invite.code);
      await this.load();
      this.listStatus.textContent = t('inviteRevoked');
      this.list.focus();
    } catch (error) {
      this.listStatus.textContent = adminErrorText(error);
    }
  }

  destroy() {}
}

/** A field's whole number from 1 to `max`: null when it is empty, undefined when it is anything else. */
function wholeNumber(input, max) {
  const text = input.value.trim();
  if (!text) return null;
  const value = Number(text);
  return Number.isInteger(value) && value >= 1 && value <= max ? value : undefined;
}
