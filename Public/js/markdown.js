// A small, safe subset of Markdown for message text: **bold**, *italic*, `code`, fenced code blocks (```), quotes
// (lines starting with >), lists (lines starting with "- " or "1. "). Everything is built as elements and text nodes
// (dom.js), never parsed as markup, so nothing else a message holds (<img onerror>, [links](javascript:…), HTML)
// becomes anything but the characters typed. Web addresses become links as elsewhere (linkify.js).
import { el } from './dom.js';
import { linkifiedText } from './linkify.js';

const FENCE = /^```/;
const QUOTE = /^> ?(.*)$/;
const BULLET = /^- (.*)$/;
const NUMBERED = /^(\d{1,9})\. (.*)$/;
// Inline marks, in the order they are looked for: code first (nothing inside it is a mark), then bold, then italic.
// A mark hugs its words (`* not italic *`), and an italic star inside a word (`2*3*4`) is no mark.
const CODE = /`([^`\n]+)`/;
const BOLD = /\*\*(?=\S)([^\n]*?\S)\*\*/;
const ITALIC = /(^|[^\w*])\*(?=[^\s*])([^*\n]*?[^\s*])\*(?![\w*])/;

/**
 * The nodes that show `text`: just the line's nodes for a plain paragraph (most messages), otherwise one element
 * per block (p, pre, blockquote, ul, ol).
 */
export function markdownNodes(text) {
  const blocks = parseBlocks(text.split('\n'));
  if (blocks.length === 1 && blocks[0].type === 'paragraph') return inlineNodes(blocks[0].lines.join('\n'));
  return blocks.map(blockElement);
}

/** The words of `text` without its marks, on one line: "**Saturday** at `10`" → "Saturday at 10" (previews, quotes). */
export function plainText(text) {
  const blocks = parseBlocks(text.split('\n'));
  const words = blocks.flatMap((block) => (block.items ?? [block.lines.join(' ')]).map((line) => (
    block.type === 'code' ? line : inlineNodes(line).map((node) => (typeof node === 'string' ? node : node.textContent)).join(''))));
  return words.join(' ').replace(/\s+/g, ' ').trim();
}

function parseBlocks(lines) {
  const blocks = [];
  let index = 0;
  const take = (pattern) => {
    const taken = [];
    for (; index < lines.length && pattern.test(lines[index]); index += 1) taken.push(lines[index].match(pattern));
    return taken;
  };
  while (index < lines.length) {
    const line = lines[index];
    const close = FENCE.test(line) ? lines.findIndex((candidate, at) => at > index && /^```\s*$/.test(candidate)) : -1;
    if (close > 0) {
      blocks.push({ type: 'code', lines: lines.slice(index + 1, close) });
      index = close + 1;
    } else if (QUOTE.test(line)) {
      blocks.push({ type: 'quote', lines: take(QUOTE).map((match) => match[1]) });
    } else if (BULLET.test(line)) {
      blocks.push({ type: 'bullets', items: take(BULLET).map((match) => match[1]) });
    } else if (NUMBERED.test(line)) {
      const matches = take(NUMBERED);
      blocks.push({ type: 'numbers', start: Number(matches[0][1]), items: matches.map((match) => match[2]) });
    } else {
      const last = blocks.at(-1);
      if (last?.type === 'paragraph') last.lines.push(line);
      else blocks.push({ type: 'paragraph', lines: [line] });
      index += 1;
    }
  }
  return blocks;
}

function blockElement(block) {
  switch (block.type) {
    case 'code': return el('pre', { className: 'md-code-block' }, el('code', { text: block.lines.join('\n') }));
    case 'quote': return el('blockquote', { className: 'md-quote' }, inlineNodes(block.lines.join('\n')));
    case 'bullets': return el('ul', { className: 'md-list' }, block.items.map((item) => el('li', {}, inlineNodes(item))));
    case 'numbers': return el('ol', { className: 'md-list', start: block.start === 1 ? null : String(block.start) },
      block.items.map((item) => el('li', {}, inlineNodes(item))));
    default: return el('p', { className: 'md-paragraph' }, inlineNodes(block.lines.join('\n')));
  }
}

/** Text with its inline marks as elements; the rest as text and links. */
function inlineNodes(text) {
  const code = text.match(CODE);
  if (code) return around(text, code.index, code[0].length, el('code', { className: 'md-code', text: code[1] }));
  const bold = text.match(BOLD);
  if (bold) return around(text, bold.index, bold[0].length, el('strong', {}, inlineNodes(bold[1])));
  const italic = text.match(ITALIC);
  if (italic) {
    const start = italic.index + italic[1].length;
    return around(text, start, italic[0].length - italic[1].length, el('em', {}, inlineNodes(italic[2])));
  }
  return linkifiedText(text);
}

/** The nodes of the text before a mark, the mark's element, then the nodes of the text after it. */
function around(text, start, length, element) {
  return [...inlineNodes(text.slice(0, start)), element, ...inlineNodes(text.slice(start + length))];
}
