// A row that opens another page (WeChat's cell with a chevron): a link, so it works with the keyboard, a middle
// click and the browser's Back button like every other address of the app.
import { el, icon, ICONS } from '../dom.js';

/** `path`: the route it opens (`me/data`). */
export function navRow({ id, path, label }) {
  return el('a', { className: 'nav-row', id, href: `#/${path}` },
    el('span', { className: 'nav-row-label', text: label }),
    icon(ICONS.chevron, { size: 18 }));
}
