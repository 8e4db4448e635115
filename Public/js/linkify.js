// Web addresses in message text become links, built as elements (never markup): only http and https, opened in a
// new tab without a referrer or a handle on this page. The browser fetches nothing for them: a preview card, if any,
// comes from the server (PROTOCOL.md §9.15), which finds links by the same rules (MessageLinks.swift).
import { el } from './dom.js';

// Full-width punctuation ends an address: Chinese and Japanese leave no space after one ("看https://a.cn/x，好吗").
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`。，、！？；：「」『』（）【】《》]+/gi;
// Punctuation that usually ends the sentence around an address rather than the address itself.
const TRAILING = /[.,;:!?)\]}'"]+$/u;

/** The text as nodes: strings and <a> elements for its addresses. */
export function linkifiedText(text) {
  const nodes = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    let address = match[0];
    const trailing = address.match(TRAILING)?.[0] ?? '';
    if (trailing && !(trailing.startsWith(')') && address.includes('('))) address = address.slice(0, address.length - trailing.length);
    let url;
    try {
      url = new URL(address);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    nodes.push(text.slice(last, match.index));
    nodes.push(el('a', { className: 'message-link', href: url.href, target: '_blank', rel: 'noopener noreferrer', text: address }));
    last = match.index + address.length;
  }
  nodes.push(text.slice(last));
  return nodes.filter((node) => node !== '');
}
