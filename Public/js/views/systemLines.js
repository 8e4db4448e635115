// What the centred lines of a chat say (PROTOCOL.md §9.1): a rename ("Bob renamed the group to “Trip”"), the membership
// changes ("Ann added Bob", "Carol left", "Ann made Bob a moderator") and pins ("Ann pinned a message"). People go by
// their display names where the page knows them, else by the name the event carried; I am "You" (or "you" after a
// verb).
import { t } from '../strings.js';

// Each membership kind's sentence: `{actor}` did it to `{member}` (both the same person for joined and left).
const MEMBERSHIP_KEYS = {
  joined: 'lineJoined',
  left: 'lineLeft',
  invited: 'lineInvited',
  removed: 'lineRemoved',
  banned: 'lineBanned',
};
const ROLE_KEYS = { member: 'lineMadeMember', moderator: 'lineMadeModerator', owner: 'lineMadeOwner' };

/** The line's words. `store` names people (display names), `room` says whether it is a group or a channel. */
export function systemLineText(store, room, event) {
  const me = store.me.id;
  const name = (person) => store.displayName(person?.id, person?.name ?? '');
  const actor = event.sender?.id === me ? t('you') : name(event.sender);
  if (event.kind === 'rename') {
    const byMe = event.sender?.id === me;
    return t(`renamed${room.kind === 'channel' ? 'Channel' : 'Group'}${byMe ? 'ByMe' : ''}`, { name: byMe ? '' : actor, title: event.text });
  }
  if (event.kind === 'pin') {
    return t(`line${event.added ? 'Pinned' : 'Unpinned'}${event.sender?.id === me ? 'ByMe' : ''}`, { name: actor });
  }
  const member = event.member?.id === me ? t('youObject') : name(event.member);
  const key = event.kind === 'role' ? ROLE_KEYS[event.text] : MEMBERSHIP_KEYS[event.kind];
  if (!key) return '';
  return t(key, { actor, member, name: event.member?.id === me ? t('you') : name(event.member) });
}
