// @mentions (PROTOCOL.md §9.10) as the web client sees them: the `@name` tokens of a text found the way the server
// finds them (an @ at the start or after a character that cannot be in a username), which of them a message really
// mentions (the server says whom, by id, in `mentions` and `mentionsAll`), marking those in a bubble, and the
// `@partial` being typed before the composer's caret.
import { el } from './dom.js';

const USERNAME_CHARACTER = /[A-Za-z0-9_.-]/;
const TOKEN = /@([A-Za-z0-9][A-Za-z0-9_.-]*)/g;
// What `@all` may also be written as.
export const EVERYONE_NAMES = ['all', 'room'];
const TYPED_MENTION = /(?:^|[^A-Za-z0-9_.-])@([A-Za-z0-9_.-]*)$/;

/** Each `@name` of the text that starts a mention: {index, length, name} (`mail@bob.example` has none). */
export function mentionTokens(text) {
  const tokens = [];
  for (const match of text.matchAll(TOKEN)) {
    if (match.index > 0 && USERNAME_CHARACTER.test(text[match.index - 1])) continue;
    tokens.push({ index: match.index, length: match[0].length, name: match[1] });
  }
  return tokens;
}

/**
 * Whom `@name` mentions in this message: 'me', 'other', 'all', or null when it is no mention (not a member, my own
 * name, an @all the server did not take). `usernameOf(id)` is a mentioned account's username when it is known.
 */
export function whomMentioned(message, name, myID, usernameOf) {
  const wanted = name.toLowerCase();
  if (message.mentionsAll === true && EVERYONE_NAMES.includes(wanted)) return 'all';
  const id = (message.mentions ?? []).find((candidate) => usernameOf(candidate)?.toLowerCase() === wanted);
  if (!id) return null;
  return id === myID ? 'me' : 'other';
}

/**
 * Wraps the real mentions among the text of `container` (a bubble's text; not inside code or links) in a
 * `.mention` span, `.mention-me` for mine and @all. `whomOf(name)` says whom a name mentions (see whomMentioned); a
 * name that ends in `.`, `-` or `_` is also tried without them, as the server does.
 */
export function markMentions(container, whomOf) {
  const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
  const textNodes = [];
  while (walker.nextNode()) if (!walker.currentNode.parentElement.closest('code, a')) textNodes.push(walker.currentNode);
  for (const node of textNodes) {
    const text = node.data;
    const pieces = [];
    let last = 0;
    for (const token of mentionTokens(text)) {
      const trimmed = token.name.replace(/[._-]+$/, '');
      const whom = whomOf(token.name) ?? (trimmed && trimmed !== token.name ? whomOf(trimmed) : null);
      if (!whom) continue;
      const length = whomOf(token.name) ? token.length : trimmed.length + 1;
      pieces.push(text.slice(last, token.index), el('span', {
        className: `mention${whom === 'other' ? '' : ' mention-me'}`,
        text: text.slice(token.index, token.index + length),
      }));
      last = token.index + length;
    }
    if (pieces.length === 0) continue;
    pieces.push(text.slice(last));
    node.replaceWith(...pieces.filter((piece) => piece !== ''));
  }
}

/** The mention being typed just before the caret: {start (the @'s index), query (what follows it)}, or null. */
export function typedMention(value, caret) {
  const match = TYPED_MENTION.exec(value.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[1].length - 1, query: match[1] };
}
