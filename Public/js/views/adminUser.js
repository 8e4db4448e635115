// Administration → an account's page: who it is, its status and role, and what an administrator may do to it
// (PROTOCOL.md §10.2): deactivate or reactivate, make or stop being an administrator, hand out a one-time password
// reset link (shown with Copy), and delete it, once confirmed. A refusal (the last administrator) says why.
import { el, replaceChildren } from '../dom.js';
import { avatarElement, profileAvatar } from '../avatar.js';
import { t } from '../strings.js';
import { formatDateTime, formatLastSeen } from '../time.js';
import { navigate } from '../router.js';
import { adminErrorText } from './adminList.js';
import { accountTags } from './adminUsers.js';
import { copyField } from './copyField.js';

export class AdminUserView {
  constructor(client, userID) {
    this.administration = client.administration;
    this.userID = userID;
    this.user = null;
    this.resetLink = null; // the last link made here: it stays while the account's page is open
    this.body = el('p', { className: 'list-note', text: t('loading') });
    this.status = el('p', { className: 'form-status', id: 'admin-user-status', role: 'status' });
    this.error = el('p', { className: 'form-error', id: 'admin-user-error', role: 'alert' });
    this.element = el('div', { className: 'me-view admin-view admin-user-view' }, this.body);
    this.load();
  }

  async load() {
    try {
      this.user = await this.administration.user(this.userID);
      this.render();
    } catch (error) {
      this.body.textContent = adminErrorText(error);
    }
  }

  render() {
    const { profile, admin, deactivated } = this.user;
    const body = el('div', { className: 'admin-user' },
      el('div', { className: 'me-header' },
        avatarElement(profileAvatar(profile), { size: 'xlarge' }),
        el('div', {},
          el('p', { className: 'me-name', id: 'admin-user-name' }, profile.displayName, ' ', accountTags(this.user)),
          el('p', { className: 'me-username', text: `@${profile.username}` }))),
      el('div', { className: 'settings-group info-list' },
        infoRow(t('accountStatus'), deactivated ? t('badgeDeactivated') : t('statusActive')),
        infoRow(t('role'), admin ? t('roleAdmin') : t('roleMember')),
        infoRow(t('accountCreated'), formatDateTime(this.user.createdAt)),
        this.user.lastSeen && infoRow(t('accountLastSeen'), formatLastSeen(this.user.lastSeen))),
      el('div', { className: 'settings-group admin-actions' },
        actionButton('user-active-toggle', deactivated ? 'reactivate' : 'deactivate', t(deactivated ? 'reactivate' : 'deactivate'),
          () => this.change(deactivated ? 'reactivate' : 'deactivate')),
        actionButton('user-admin-toggle', admin ? 'revoke' : 'grant', t(admin ? 'revokeAdmin' : 'grantAdmin'),
          () => this.change(admin ? 'revoke' : 'grant')),
        actionButton('user-reset-link', 'password-reset', t('resetLink'), () => this.makeResetLink()),
        this.resetLink && el('div', { className: 'reset-link' },
          el('p', { className: 'group-note', id: 'reset-link-hint', text: t('resetLinkHint', { name: profile.displayName }) }),
          copyField({ id: 'reset-link-url', label: t('resetLink'), value: this.resetLink.url })),
        this.status,
        this.error,
        actionButton('user-delete', 'delete', t('deleteAccount'), () => this.deleteUser(), 'danger')));
    replaceChildren(this.element, body);
    this.body = body;
  }

  /** Runs an action; the page shows the account as it is then, with the focus back where it was. */
  async act(buttonID, action) {
    this.status.textContent = '';
    this.error.textContent = '';
    const button = this.element.querySelector(`#${buttonID}`);
    button.disabled = true;
    try {
      const done = await action();
      this.render();
      this.status.textContent = done ?? '';
    } catch (error) {
      this.error.textContent = adminErrorText(error);
    } finally {
      button.disabled = false;
    }
    this.element.querySelector(`#${buttonID}`)?.focus();
  }

  change(action) {
    const buttonID = ['grant', 'revoke'].includes(action) ? 'user-admin-toggle' : 'user-active-toggle';
    return this.act(buttonID, async () => {
      this.user = await this.administration.change(this.userID, action);
      return t(`now_${action}`, { name: this.user.profile.displayName });
    });
  }

  makeResetLink() {
    return this.act('user-reset-link', async () => {
      this.resetLink = await this.administration.passwordResetLink(this.userID);
      return null;
    });
  }

  async deleteUser() {
    if (!window.confirm(t('confirmDeleteUser', { name: this.user.profile.displayName }))) return;
    this.error.textContent = '';
    try {
      await this.administration.deleteUser(this.userID);
      navigate('me/admin/users');
    } catch (error) {
      this.error.textContent = adminErrorText(error);
    }
  }

  destroy() {}
}

function infoRow(label, value) {
  return el('div', { className: 'settings-row' }, el('span', { text: label }), el('span', { className: 'settings-value', text: value }));
}

function actionButton(id, action, label, onClick, tone = '') {
  return el('button', { type: 'button', className: `button wide admin-action ${tone}`.trim(), id, dataset: { action }, text: label, on: { click: onClick } });
}
