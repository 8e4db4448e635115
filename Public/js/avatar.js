// Avatars are initials on a colour: people bring their colour in their profile; initials come from the name. A
// profile or room that wears a picture (§6.5, §7.7: `avatarURL`) shows it over them; the initials stay beneath as the
// fallback while it loads and when it fails.
import { el } from './dom.js';

const ROOM_COLORS = ['#5C6BC0', '#26A69A', '#EF6C00', '#8D6E63', '#7E57C2', '#29B6F6', '#EC407A', '#9CCC65'];

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function graphemesOf(text) {
  return Array.from(graphemes.segment(text), ({ segment }) => segment);
}

/**
 * The first character a reader sees in a name (a grapheme: "👨‍👩‍👧" or "é" whole), upper-cased. A room's avatar shows
 * only this one, so a name mixing scripts never gives a mixed pair such as "F猎".
 */
export function firstGrapheme(name) {
  const first = graphemes.segment((name || '').trim()).containing(0)?.segment;
  return (first || '?').toLocaleUpperCase();
}

const SCRIPTS = ['Latin', 'Han', 'Hiragana', 'Katakana', 'Hangul', 'Cyrillic', 'Greek', 'Arabic', 'Hebrew', 'Thai', 'Devanagari']
  .map((script) => [script, new RegExp(`^\\p{Script=${script}}`, 'u')]);

function scriptOf(grapheme) {
  return SCRIPTS.find(([, pattern]) => pattern.test(grapheme))?.[0] ?? null;
}

/**
 * A person's initials: the first graphemes of their name's first two words ("Ann Lee" → "AL"), or the first two of a
 * single word, when both are letters of one script; otherwise the first grapheme alone ("Fun 猎人" → "F", never "F猎").
 * The server's profile carries initials too, but counted in characters whatever their script.
 */
export function initialsFromName(name) {
  const words = (name || '').trim().split(/[\s_.\-]+/u).filter(Boolean);
  const pair = (words.length > 1 ? words.map((word) => graphemesOf(word)[0]) : graphemesOf(words[0] || '')).slice(0, 2);
  const script = scriptOf(pair[0] ?? '');
  return pair.length === 2 && script && scriptOf(pair[1]) === script ? pair.join('').toLocaleUpperCase() : firstGrapheme(name);
}

/** A stable colour for something that has no colour of its own (a channel), picked from its id. */
export function colorFromId(id) {
  let hash = 0;
  for (const char of String(id)) hash = (hash * 31 + char.codePointAt(0)) >>> 0;
  return ROOM_COLORS[hash % ROOM_COLORS.length];
}

/** Avatar data for a profile ({initials, avatarColor, displayName, avatarURL}). */
export function profileAvatar(profile) {
  return {
    initials: initialsFromName(profile.displayName || profile.username),
    color: profile.avatarColor || colorFromId(profile.id || profile.username),
    label: profile.displayName || profile.username,
    url: profile.avatarURL ?? null,
  };
}

/** Avatar data for a room: the peer's for a direct room, the first grapheme of its name (and its picture) otherwise. */
export function roomAvatar(room) {
  if (room.kind === 'direct' && room.peer) return profileAvatar(room.peer);
  return { initials: firstGrapheme(room.name), color: colorFromId(room.id), label: room.name, url: room.avatarURL ?? null };
}

/** Relative luminance (WCAG) of a `#RRGGBB` colour. */
function luminance(hex) {
  const channels = [1, 3, 5].map((index) => parseInt(hex.slice(index, index + 2), 16) / 255)
    .map((value) => (value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4));
  return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2];
}

/** White or near-black initials, whichever stands out more on the avatar's colour (people choose their colours). */
export function initialsColor(background) {
  if (!/^#[0-9a-f]{6}$/i.test(background || '')) return '#ffffff';
  const light = luminance(background);
  return (1.05 / (light + 0.05)) >= ((light + 0.05) / (luminance('#111111') + 0.05)) ? '#ffffff' : '#111111';
}

/**
 * The avatar element. It is decorative when `decorative` is set (its name is already next to it). A picture covers
 * the initials once it has loaded and is taken away if it fails, so a broken picture never shows.
 */
export function avatarElement({ initials, color, label, url }, { size = 'medium', decorative = true } = {}) {
  const avatar = el('span', {
    className: `avatar avatar-${size}`,
    text: initials,
    style: { backgroundColor: color, color: initialsColor(color) },
    role: decorative ? undefined : 'img',
    'aria-label': decorative ? undefined : label,
    'aria-hidden': decorative ? 'true' : undefined,
    dataset: url ? { avatarUrl: url } : {},
  });
  if (url) {
    const picture = el('img', { className: 'avatar-picture', src: url, alt: '', draggable: 'false' });
    picture.addEventListener('load', () => avatar.classList.add('has-picture'));
    picture.addEventListener('error', () => picture.remove());
    avatar.append(picture);
  }
  return avatar;
}
