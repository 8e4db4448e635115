// What the chat info shows of each member's standing and what I may do to them (PROTOCOL.md §7.3): their role
// (Owner, Moderator), whether they are muted and whether they are a bot (§9.13), and, for someone I outrank, Remove, Ban and Mute or Unmute; the
// owner and administrators also give roles (Make moderator or Make member, Make owner). Asked first where it cannot
// be undone by a click; the server has the last word, and its refusal is said.
import { el } from '../dom.js';
import { canGiveRoles, canModerate, rankOf } from '../moderation.js';
import { describeError, t } from '../strings.js';

const ROLE_TAGS = { owner: 'roleOwner', moderator: 'roleModerator' };

/** The tags after a member's name: their role (members have none), Muted and Bot. */
export function memberTags(profile) {
  return [
    ROLE_TAGS[profile.role] && el('span', { className: `tag tag-role tag-${profile.role}`, text: t(ROLE_TAGS[profile.role]) }),
    profile.muted && el('span', { className: 'tag tag-muted', text: t('mutedMark') }),
    profile.bot === true && el('span', { className: 'tag tag-bot', text: t('badge_bot') }),
  ];
}

/**
 * The buttons for what I may do to `profile` in the room (null when nothing): `myRank` is mine there, `lobby` whether
 * it is the lobby (which has no owner). `onDone()` runs after a change the server took, `onRefused(text)` with its
 * reason otherwise.
 */
export function memberActions(client, roomID, profile, { myRank, lobby, onDone, onRefused }) {
  if (profile.id === client.me.id || myRank <= rankOf(profile.role, profile.admin === true)) return null;
  const name = profile.displayName || profile.username;
  const moderation = client.moderation;
  const act = async (button, confirmText, request) => {
    if (confirmText && !window.confirm(confirmText)) return;
    button.disabled = true;
    try {
      await request();
      onDone();
    } catch (error) {
      button.disabled = false;
      onRefused(error.code === 'not_allowed' ? t('moderationNotAllowed') : describeError(error));
    }
  };
  const button = (action, label, confirmText, request, danger = false) => el('button', {
    type: 'button',
    className: `link-button member-action${danger ? ' danger-link' : ''}`,
    dataset: { action },
    text: t(label),
    'aria-label': t('memberAction', { action: t(label), name }),
    on: { click: (event) => act(event.currentTarget, confirmText, request) },
  });
  const actions = [];
  if (canGiveRoles(myRank)) {
    actions.push(profile.role === 'moderator'
      ? button('make-member', 'makeMember', null, () => moderation.setRole(roomID, profile.id, 'member'))
      : button('make-moderator', 'makeModerator', null, () => moderation.setRole(roomID, profile.id, 'moderator')));
    if (!lobby && profile.role !== 'owner') {
      actions.push(button('make-owner', 'makeOwner', t('confirmMakeOwner', { name }), () => moderation.setRole(roomID, profile.id, 'owner')));
    }
  }
  if (canModerate(myRank)) {
    actions.push(profile.muted
      ? button('unmute', 'unmuteMember', null, () => moderation.setMuted(roomID, profile.id, false))
      : button('mute', 'muteMember', null, () => moderation.setMuted(roomID, profile.id, true)));
    actions.push(button('remove', 'removeMember', t('confirmRemoveMember', { name }), () => moderation.removeMember(roomID, profile.id), true));
    actions.push(button('ban', 'banMember', t('confirmBanMember', { name }), () => moderation.setBanned(roomID, profile.id, true), true));
  }
  return actions.length ? el('span', { className: 'member-actions' }, actions) : null;
}
