// Administration → Users: every account, deactivated ones too, found by username or display name as you type,
// a page at a time, with administrators and deactivated accounts marked. An account opens its own page.
import { el, icon, ICONS } from '../dom.js';
import { avatarElement, profileAvatar } from '../avatar.js';
import { t } from '../strings.js';
import { formatLastSeen, formatListTime } from '../time.js';
import { adminUserPath } from '../router.js';
import { PagedList } from './adminList.js';

const SEARCH_DELAY_MS = 250;

export class AdminUsersView {
  constructor(client) {
    this.administration = client.administration;
    this.searchTimer = null;
    this.searchInput = el('input', {
      type: 'search', className: 'search-input', id: 'admin-user-search', placeholder: t('searchUsers'),
      'aria-label': t('searchUsers'), maxlength: '64', autocapitalize: 'none', spellcheck: 'false',
      on: { input: () => this.scheduleSearch() },
    });
    this.users = new PagedList({
      id: 'admin-users',
      label: t('adminUsers'),
      empty: t('nobodyFound'),
      load: async (after) => {
        const { users, next } = await this.administration.users(this.searchInput.value.trim(), after);
        return { items: users, next };
      },
      renderItem: (user) => userRow(user),
    });
    this.element = el('div', { className: 'me-view admin-view' },
      el('div', { className: 'settings-group' },
        el('div', { className: 'search-bar' }, icon(ICONS.search, { size: 18 }), this.searchInput),
        this.users.element));
    this.users.reload();
  }

  scheduleSearch() {
    clearTimeout(this.searchTimer);
    this.searchTimer = setTimeout(() => this.users.reload(), SEARCH_DELAY_MS);
  }

  destroy() {
    clearTimeout(this.searchTimer);
  }
}

/** An account in the list: its name with the Admin and Deactivated marks, its username and when it was last seen. */
function userRow(user) {
  const { profile } = user;
  const seen = user.lastSeen ? t('lastSeen', { time: formatLastSeen(user.lastSeen) }) : t('joinedOn', { time: formatListTime(user.createdAt) });
  return el('li', {},
    el('a', { className: 'admin-row admin-row-link', href: `#/${adminUserPath(profile.id)}`, dataset: { username: profile.username } },
      avatarElement(profileAvatar(profile)),
      el('span', { className: 'admin-row-main' },
        el('span', { className: 'admin-row-title' },
          el('span', { className: 'admin-row-name', text: profile.displayName }),
          accountTags(user)),
        el('span', { className: 'admin-row-detail', text: `@${profile.username} · ${seen}` })),
      icon(ICONS.chevron, { size: 18 })));
}

/** The marks of an account: Admin, Deactivated (none for an active member). */
export function accountTags(user) {
  return [
    user.admin && el('span', { className: 'tag tag-admin', text: t('badgeAdmin') }),
    user.deactivated && el('span', { className: 'tag tag-deactivated', text: t('badgeDeactivated') }),
  ];
}
