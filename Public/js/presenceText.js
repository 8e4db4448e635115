// How someone's presence reads: unknown while we are disconnected (we cannot tell), online, or when last seen.
import { t } from './strings.js';
import { formatLastSeen } from './time.js';

/** `presence` as Store.presenceOf gives it: null (unknown) or {online, lastSeen}. */
export function presenceText(presence) {
  if (!presence) return t('presenceUnknown');
  if (presence.online) return t('online');
  if (presence.lastSeen) return t('lastSeen', { time: formatLastSeen(presence.lastSeen) });
  return t('offline');
}
