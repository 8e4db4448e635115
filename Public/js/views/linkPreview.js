// The card the server made for a message's first link (PROTOCOL.md §9.1, `preview`): site, title, a few lines of
// description and an image, all one link that opens the page in a new tab. Built from data alone: every field is
// the fetched page's words and goes in as text. Removing a preview is the message menu's (messageMenu.js).
import { el } from '../dom.js';
import { t } from '../strings.js';

/** The card of `message`'s preview, or null (none, a tombstone, or an address that is not http or https). */
export function linkPreviewCard(message, { attachmentURL }) {
  const preview = message.preview;
  const url = !message.deleted && webURL(preview?.url);
  if (!url) return null;
  const site = preview.siteName || url.hostname;
  const title = preview.title || '';
  const image = preview.image?.contentType?.startsWith('image/') ? preview.image : null;
  return el('a', {
    className: `link-preview${image ? ' with-image' : ''}`,
    href: url.href,
    target: '_blank',
    rel: 'noopener noreferrer',
    // The card's words would make a long name: the title and the site say where it leads.
    'aria-label': t(title ? 'linkPreviewLabel' : 'linkPreviewLabelUntitled', { title, site }),
  },
  el('span', { className: 'link-preview-text' },
    el('span', { className: 'link-preview-site', text: site }),
    title && el('span', { className: 'link-preview-title', text: title }),
    preview.description && el('span', { className: 'link-preview-description', text: preview.description })),
  image && el('img', { className: 'link-preview-image', src: attachmentURL(image.id), alt: '', loading: 'lazy', width: '64', height: '64' }));
}

/** The address as a URL when it is one a card may open (http or https), otherwise null. */
function webURL(address) {
  try {
    const url = new URL(address);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}
