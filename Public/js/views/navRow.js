// A row that opens another page (WeChat's cell with a chevron): a link, so it works with the keyboard, a middle
// click and the browser's Back button like every other address of the app.
import { el, icon, ICONS } from '../dom.js';

/** `path`: the route it opens (`me/data`); `detail`: a value shown before the chevron. */
export function navRow({ id, path, label, detail = null }) {
  return el('a', { className: 'nav-row', id, href: `#/${path}` },
    el('span', { className: 'nav-row-label', text: label }),
    detail && el('span', { className: 'nav-row-detail', text: detail }),
    icon(ICONS.chevron, { size: 18 }));
}
