// The members of a channel or group, in its info (PROTOCOL.md §7, §7.3): asked for each time the info opens and
// again when someone joins, leaves or changes role, each with presence, role tags and what I may do to them
// (memberModeration.js); for moderators, who is banned (bansList.js) and the chat's reports (roomReports.js).
import { el, replaceChildren } from '../dom.js';
import { avatarElement, profileAvatar } from '../avatar.js';
import { LAST_SEEN_LOOKUPS, statusOf } from '../presenceText.js';
import { errorText, t } from '../strings.js';
import { canModerate } from '../moderation.js';
import { memberActions, memberTags } from './memberModeration.js';
import { BansList } from './bansList.js';
import { RoomReports } from './roomReports.js';

export class RoomMembers {
  constructor(client, roomID) {
    Object.assign(this, { client, roomID });
    this.store = client.store;
    this.profiles = null;
    this.list = el('ul', { className: 'member-list', id: 'room-info-members', 'aria-labelledby': 'room-info-members-title', tabindex: '-1' });
    this.error = el('p', { className: 'form-error moderation-error', id: 'moderation-error', role: 'alert' });
    const moderating = canModerate(client.myRank(roomID));
    this.bans = moderating ? new BansList(client, roomID, { onRefused: (text) => { this.error.textContent = text; } }) : null;
    this.element = el('div', { className: 'room-members' },
      el('h3', { className: 'section-title', id: 'room-info-members-title', text: t('memberList') }),
      this.list,
      this.error,
      this.bans?.element,
      moderating && new RoomReports(client, roomID).element);
    this.load();
  }

  /** Asks the server for the members. */
  async load() {
    try {
      this.profiles = await this.client.members(this.roomID);
      this.render();
    } catch (error) {
      replaceChildren(this.list, el('li', { className: 'member-list-status', text: error.code === 'unreachable' ? errorText(error.code) : t('membersUnavailable') }));
    }
  }

  render() {
    if (!this.profiles) return;
    const moderating = {
      myRank: this.client.myRank(this.roomID),
      lobby: this.roomID === 'lobby',
      onDone: () => this.moderated(),
      onRefused: (text) => { this.error.textContent = text; },
    };
    replaceChildren(this.list, this.profiles.map((profile, index) => {
      const { presence, text: status } = statusOf(this.client, profile.id, { lookUp: index < LAST_SEEN_LOOKUPS });
      const online = presence?.online === true;
      const name = profile.displayName || profile.username;
      return el('li', { className: 'member-row', dataset: { username: profile.username } },
        el('span', { className: 'avatar-wrap' },
          avatarElement(profileAvatar(profile)),
          el('span', { className: `presence-dot${online ? ' online' : ''}${presence ? '' : ' unknown'}`, 'aria-hidden': 'true' })),
        el('span', { className: 'member-main' },
          el('span', { className: 'member-name-row' },
            el('span', { className: 'member-name', text: profile.id === this.store.me.id ? `${name} (${t('you')})` : name }),
            memberTags(profile)),
          el('span', { className: 'member-detail', text: `@${profile.username} · ${status}` }),
          memberActions(this.client, this.roomID, profile, moderating)));
    }));
  }

  /** A change made from the list: the members (and who is banned) as they are now, the focus back on the list. */
  async moderated() {
    this.error.textContent = '';
    this.client.membersChanged(this.roomID);
    await Promise.all([this.load(), this.bans?.load()]);
    this.list.focus();
  }
}
