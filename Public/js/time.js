// Dates the way chat apps show them: a clock time today, "Yesterday", a weekday within the week, a date beyond.
import { currentLanguage, t } from './strings.js';

const DAY_MS = 24 * 60 * 60 * 1000;

function startOfDay(ms) {
  const date = new Date(ms);
  date.setHours(0, 0, 0, 0);
  return date.getTime();
}

/** Whole calendar days between two instants in local time (0 = same day, 1 = yesterday). */
function daysBetween(earlier, later) {
  return Math.round((startOfDay(later) - startOfDay(earlier)) / DAY_MS);
}

export function formatClock(ms, { seconds = false } = {}) {
  const options = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', ...(seconds ? { second: '2-digit' } : {}) };
  return new Intl.DateTimeFormat(currentLanguage(), options).format(new Date(ms));
}

function formatWeekday(ms) {
  return new Intl.DateTimeFormat(currentLanguage(), { weekday: 'long' }).format(new Date(ms));
}

function formatDate(ms, now) {
  const sameYear = new Date(ms).getFullYear() === new Date(now).getFullYear();
  const options = sameYear ? { month: 'numeric', day: 'numeric' } : { year: 'numeric', month: 'numeric', day: 'numeric' };
  return new Intl.DateTimeFormat(currentLanguage(), options).format(new Date(ms));
}

/** The time beside a chat in the list: `13:53`, `Yesterday`, `Tuesday`, `11/2`. */
export function formatListTime(ms, now = Date.now()) {
  const days = daysBetween(ms, now);
  if (days <= 0) return formatClock(ms);
  if (days === 1) return t('yesterday');
  if (days < 7) return formatWeekday(ms);
  return formatDate(ms, now);
}

/** The label of a day separator in a chat: `Today`, `Yesterday`, `Tuesday`, `11/2`. */
export function formatDayLabel(ms, now = Date.now()) {
  const days = daysBetween(ms, now);
  if (days <= 0) return t('today');
  if (days === 1) return t('yesterday');
  if (days < 7) return formatWeekday(ms);
  return formatDate(ms, now);
}

/** A key that is equal for two instants on the same local calendar day. */
export function dayKey(ms) {
  return startOfDay(ms);
}

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const RELATIVE_HOURS = 6;

/** "Last seen" times: `just now`, `5 min ago`, `2 h ago`; later the clock time today, else list style plus the clock. */
export function formatLastSeen(ms, now = Date.now()) {
  const ago = Math.max(0, now - ms);
  if (ago < MINUTE_MS) return t('justNow');
  if (ago < HOUR_MS) return t('minutesAgo', { count: Math.floor(ago / MINUTE_MS) });
  if (ago < RELATIVE_HOURS * HOUR_MS) return t('hoursAgo', { count: Math.floor(ago / HOUR_MS) });
  return daysBetween(ms, now) <= 0 ? formatClock(ms) : `${formatListTime(ms, now)} ${formatClock(ms)}`;
}

/** A date and time in full, for records (an account's creation, the audit log): `28 Nov 2026, 10:59`. */
export function formatDateTime(ms) {
  return new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23' }).format(new Date(ms));
}
