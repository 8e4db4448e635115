// Me → My data (PROTOCOL.md §10.6, §10.7): download an export of my data (a JSON file), the people I blocked (each
// with Unblock), and deleting my account, which asks for the password and then signs out.
import { el, replaceChildren } from '../dom.js';
import { avatarElement, profileAvatar } from '../avatar.js';
import { describeError, t } from '../strings.js';

export class MyDataView {
  constructor(client) {
    this.client = client;
    this.exportStatus = el('p', { className: 'form-status', id: 'export-status', role: 'status' });
    this.exportButton = el('button', {
      type: 'button', className: 'button primary', id: 'export-data', text: t('exportData'), on: { click: () => this.exportData() },
    });
    this.blockedList = el('ul', { className: 'admin-list', id: 'blocked-list', 'aria-labelledby': 'blocked-title' });
    this.blockedStatus = el('p', { className: 'form-status', id: 'blocked-status', role: 'status' });
    this.passwordInput = el('input', {
      type: 'password', id: 'delete-password', className: 'text-input', autocomplete: 'current-password', required: true,
      maxlength: '128', 'aria-label': t('currentPassword'), placeholder: t('currentPassword'),
    });
    this.deleteError = el('p', { className: 'form-error', id: 'delete-error', role: 'alert' });
    this.deleteButton = el('button', { type: 'submit', className: 'button danger', id: 'delete-account', text: t('deleteAccount') });

    this.element = el('div', { className: 'me-view my-data-view' },
      el('section', { className: 'settings-group', 'aria-labelledby': 'export-title' },
        el('h2', { className: 'section-title', id: 'export-title', text: t('exportData') }),
        el('p', { className: 'group-note', text: t('exportHint') }),
        el('div', { className: 'group-actions' }, this.exportButton),
        this.exportStatus),
      el('section', { className: 'settings-group', 'aria-labelledby': 'blocked-title' },
        el('h2', { className: 'section-title', id: 'blocked-title', text: t('blockedUsers') }),
        this.blockedList,
        this.blockedStatus),
      el('form', {
        className: 'settings-group', id: 'delete-account-form', 'aria-labelledby': 'delete-title',
        on: { submit: (event) => this.deleteAccount(event) },
      },
      el('h2', { className: 'section-title', id: 'delete-title', text: t('deleteAccount') }),
      el('p', { className: 'group-note', id: 'delete-hint', text: t('deleteAccountHint') }),
      el('div', { className: 'inline-form-row' }, this.passwordInput, this.deleteButton),
      this.deleteError));
    this.passwordInput.setAttribute('aria-describedby', 'delete-hint');
    this.loadBlocked();
  }

  /** Downloads the export: the token rides in a header, so it is fetched here and handed to the browser as a file. */
  async exportData() {
    this.exportButton.disabled = true;
    this.exportStatus.textContent = t('exporting');
    try {
      const { blob, name } = await this.client.myData.export();
      const fileName = name ?? `swiftchat-${this.client.me.username}.json`;
      const url = URL.createObjectURL(blob);
      const link = el('a', { href: url, download: fileName, hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 0);
      this.exportStatus.textContent = t('exported', { name: fileName });
    } catch (error) {
      this.exportStatus.textContent = describeError(error);
    } finally {
      this.exportButton.disabled = false;
    }
  }

  async loadBlocked() {
    replaceChildren(this.blockedList, el('li', { className: 'list-note', text: t('loading') }));
    try {
      this.renderBlocked(await this.client.myData.blocked());
    } catch (error) {
      replaceChildren(this.blockedList, el('li', { className: 'list-note', text: describeError(error) }));
    }
  }

  renderBlocked(profiles) {
    if (profiles.length === 0) {
      replaceChildren(this.blockedList, el('li', { className: 'list-note', text: t('noBlockedUsers') }));
      return;
    }
    replaceChildren(this.blockedList, profiles.map((profile) => el('li', { className: 'admin-row', dataset: { username: profile.username } },
      avatarElement(profileAvatar(profile)),
      el('span', { className: 'admin-row-main' },
        el('span', { className: 'admin-row-title', text: profile.displayName }),
        el('span', { className: 'admin-row-detail', text: `@${profile.username}` })),
      el('button', {
        type: 'button', className: 'button unblock-button', text: t('unblock'), 'aria-label': `${t('unblock')} ${profile.displayName}`,
        on: { click: () => this.unblock(profile) },
      }))));
  }

  async unblock(profile) {
    this.blockedStatus.textContent = '';
    try {
      await this.client.myData.unblock(profile.id);
      this.blockedStatus.textContent = t('unblocked', { name: profile.displayName });
      await this.loadBlocked();
    } catch (error) {
      this.blockedStatus.textContent = describeError(error);
    }
  }

  async deleteAccount(event) {
    event.preventDefault();
    this.deleteError.textContent = '';
    const password = this.passwordInput.value;
    if (!password) {
      this.passwordInput.focus();
      return;
    }
    if (!window.confirm(t('confirmDeleteAccount'))) return;
    this.deleteButton.disabled = true;
    try {
      await this.client.deleteAccount(password); // signs out: this page is gone when it resolves
    } catch (error) {
      this.deleteError.textContent = describeError(error);
      this.deleteButton.disabled = false;
      this.passwordInput.focus();
    }
  }

  destroy() {}
}
