// Me → Administration (administrators; PROTOCOL.md §10): the lists an administrator works with, and who may
// register on this server. The registration mode is the operator's (`--registration`), so it only shows here.
import { el } from '../dom.js';
import { t } from '../strings.js';
import { navRow } from './navRow.js';

export class AdminHomeView {
  constructor(client) {
    this.client = client;
    this.registrationValue = el('span', { className: 'settings-value', id: 'registration-mode', text: t('loading') });
    this.registrationNote = el('p', { className: 'group-note', id: 'registration-note' });
    this.element = el('div', { className: 'me-view admin-view' },
      !client.me.admin && el('p', { className: 'group-note admin-only-note', text: t('adminOnly') }),
      el('div', { className: 'settings-group nav-group' },
        navRow({ id: 'admin-users-link', path: 'me/admin/users', label: t('adminUsers') }),
        navRow({ id: 'admin-invites-link', path: 'me/admin/invites', label: t('adminInvites') }),
        navRow({ id: 'admin-rooms-link', path: 'me/admin/rooms', label: t('adminRooms') }),
        navRow({ id: 'admin-reports-link', path: 'me/admin/reports', label: t('reports') }),
        navRow({ id: 'admin-audit-link', path: 'me/admin/audit', label: t('adminAudit') })),
      el('section', { className: 'settings-group', 'aria-labelledby': 'registration-title' },
        el('div', { className: 'settings-row registration-row' },
          el('h2', { className: 'row-title', id: 'registration-title', text: t('registration') }),
          this.registrationValue),
        this.registrationNote));
    this.loadRegistration();
  }

  async loadRegistration() {
    let mode = null;
    try {
      mode = await this.client.administration.registration();
    } catch {
      // shown as unknown
    }
    const known = ['open', 'invite', 'closed'].includes(mode);
    this.registrationValue.textContent = known ? t(`registration_${mode}`) : t('unknownValue');
    this.registrationValue.dataset.mode = mode ?? '';
    this.registrationNote.textContent = known ? `${t(`registrationExplain_${mode}`)} ${t('registrationSetBy')}` : t('registrationSetBy');
  }

  destroy() {}
}
