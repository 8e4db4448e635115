// How someone's presence reads: unknown while we are disconnected (we cannot tell), online, or when last seen. Every
// place that shows a person's status (Contacts, a room's members, a direct chat's header) goes through statusOf,
// so the same person reads the same everywhere.
import { t } from './strings.js';
import { formatLastSeen } from './time.js';

// In a list of people, last-seen times are asked for (once per connection) for the first this many.
export const LAST_SEEN_LOOKUPS = 30;

/** `presence` as Store.presenceOf gives it: null (unknown) or {online, lastSeen}. */
function presenceText(presence) {
  if (!presence) return t('presenceUnknown');
  if (presence.online) return t('online');
  if (presence.lastSeen) return t('lastSeen', { time: formatLastSeen(presence.lastSeen) });
  return t('offline');
}

/**
 * Someone's presence and how it reads ({presence, text}). Unless `lookUp` is false (far down a long list), when they
 * were last seen is asked for once if not known yet: without it they would read "Offline" here and "last seen 5 min
 * ago" where it was asked.
 */
export function statusOf(client, userID, { lookUp = true } = {}) {
  if (lookUp) client.lookUpLastSeen(userID);
  const presence = client.store.presenceOf(userID);
  return { presence, text: presenceText(presence) };
}
