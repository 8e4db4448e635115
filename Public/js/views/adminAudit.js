// Administration → Audit log (PROTOCOL.md §10.3): every administrative action, oldest first as the server keeps
// them, a page at a time ("Load more" brings newer ones): who did what to whom, when and from which address.
import { el } from '../dom.js';
import { t } from '../strings.js';
import { formatDateTime } from '../time.js';
import { PagedList } from './adminList.js';

// What each action says, and which field of the entry names what it was done to (user actions and room moderation
// carry the username as `detail`; a removed message is `ROOM/SEQ` in `target`; a resolved report, the action taken).
const ACTIONS = {
  'grant': { key: 'audit_grant', object: 'detail' },
  'revoke': { key: 'audit_revoke', object: 'detail' },
  'deactivate': { key: 'audit_deactivate', object: 'detail' },
  'reactivate': { key: 'audit_reactivate', object: 'detail' },
  'password-reset': { key: 'audit_password_reset', object: 'detail' },
  'delete-account': { key: 'audit_delete_account', object: 'detail' },
  'invite': { key: 'audit_invite' },
  'revoke-invite': { key: 'audit_revoke_invite' },
  'delete-message': { key: 'audit_delete_message', object: 'target' },
  'role': { key: 'audit_role', object: 'detail' },
  'remove-member': { key: 'audit_remove_member', object: 'detail' },
  'ban': { key: 'audit_ban', object: 'detail' },
  'unban': { key: 'audit_unban', object: 'detail' },
  'mute': { key: 'audit_mute', object: 'detail' },
  'unmute': { key: 'audit_unmute', object: 'detail' },
  'resolve-report': { key: 'audit_resolve_report', object: 'detail' },
};

export class AdminAuditView {
  constructor(client) {
    this.entries = new PagedList({
      id: 'admin-audit',
      label: t('adminAudit'),
      empty: t('noAuditEntries'),
      load: async (after) => {
        const { entries, next } = await client.administration.audit(after);
        return { items: entries, next };
      },
      renderItem: (entry) => entryRow(entry),
    });
    this.element = el('div', { className: 'me-view admin-view' }, el('div', { className: 'settings-group' }, this.entries.element));
    this.entries.reload();
  }

  destroy() {}
}

function entryRow(entry) {
  const action = ACTIONS[entry.action];
  const object = action?.object ? entry[action.object] ?? entry.target ?? '' : '';
  const what = action ? t(action.key, { target: object }) : [entry.action, entry.detail ?? entry.target].filter(Boolean).join(' ');
  const when = [formatDateTime(entry.date), entry.address && t('auditFrom', { address: entry.address })].filter(Boolean).join(' · ');
  return el('li', { className: 'admin-row audit-row', dataset: { action: entry.action, id: String(entry.id) } },
    el('span', { className: 'admin-row-main' },
      el('span', { className: 'audit-text' }, el('strong', { text: entry.actorName }), ' ', what),
      el('span', { className: 'admin-row-detail', text: when })));
}
