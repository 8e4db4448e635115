// The people banned from a channel or group, in its info, for its moderators (PROTOCOL.md §7.3): each with Unban.
// Asked each time the info opens, and again after a ban or unban made there.
import { el, replaceChildren } from '../dom.js';
import { describeError, t } from '../strings.js';

export class BansList {
  /** `onRefused(text)`: an unban the server refused, with its reason. */
  constructor(client, roomID, { onRefused }) {
    Object.assign(this, { client, roomID, onRefused });
    this.list = el('ul', { className: 'member-list bans-list', id: 'room-info-bans', 'aria-labelledby': 'room-info-bans-title', tabindex: '-1' });
    this.element = el('section', { className: 'bans-section', 'aria-labelledby': 'room-info-bans-title' },
      el('h3', { className: 'section-title', id: 'room-info-bans-title', text: t('bannedList') }),
      this.list);
    this.load();
  }

  async load() {
    try {
      const banned = await this.client.moderation.bans(this.roomID);
      replaceChildren(this.list, banned.length === 0
        ? el('li', { className: 'member-list-status', text: t('noBans') })
        : banned.map((profile) => this.row(profile)));
    } catch (error) {
      replaceChildren(this.list, el('li', { className: 'member-list-status', text: describeError(error) }));
    }
  }

  row(profile) {
    const name = profile.displayName || profile.username;
    return el('li', { className: 'member-row ban-row', dataset: { username: profile.username } },
      el('span', { className: 'member-main' },
        el('span', { className: 'member-name', text: name }),
        el('span', { className: 'member-detail', text: `@${profile.username}` })),
      el('button', {
        type: 'button', className: 'link-button unban-button', text: t('unban'), 'aria-label': t('memberAction', { action: t('unban'), name }),
        on: { click: () => this.unban(profile) },
      }));
  }

  async unban(profile) {
    try {
      await this.client.moderation.setBanned(this.roomID, profile.id, false);
      await this.load();
      this.list.focus();
    } catch (error) {
      this.onRefused(describeError(error));
    }
  }
}
