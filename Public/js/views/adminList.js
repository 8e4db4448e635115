// What the Administration pages share: a list the server hands out a page at a time (PROTOCOL.md §10: `next` is
// the `after` of the next page, absent on the last), loaded again from the start or continued with "Load more",
// and how a refusal reads there.
import { el, replaceChildren } from '../dom.js';
import { describeError, t } from '../strings.js';

/** A refusal on an administration page: `forbidden` there means "not an administrator". */
export function adminErrorText(error) {
  return error.code === 'forbidden' ? t('adminOnly') : describeError(error);
}

export class PagedList {
  /**
   * `load(after)` resolves with one page, {items, next}; `renderItem(item)` makes its <li>; `empty` is what shows
   * when there is nothing at all.
   */
  constructor({ id, label, load, renderItem, empty }) {
    Object.assign(this, { load, renderItem, empty });
    this.next = null;
    this.generation = 0; // a reload makes the pages still on their way stale
    this.list = el('ul', { className: 'admin-list', id, 'aria-label': label, tabindex: '-1' });
    this.status = el('p', { className: 'list-note', id: `${id}-status`, role: 'status' });
    this.moreButton = el('button', {
      type: 'button', className: 'button wide load-more', id: `${id}-more`, text: t('loadMore'), hidden: true,
      on: { click: () => this.loadMore() },
    });
    this.element = el('div', { className: 'paged-list' }, this.list, this.status, this.moreButton);
  }

  /** Starts again from the first page. The rows shown stay until it comes, so the list does not blink empty. */
  reload() {
    this.generation += 1;
    this.next = null;
    this.moreButton.hidden = true;
    return this.fetch(null);
  }

  loadMore() {
    return this.next === null ? Promise.resolve() : this.fetch(this.next);
  }

  async fetch(after) {
    const generation = this.generation;
    const hadFocus = document.activeElement === this.moreButton;
    this.moreButton.disabled = true;
    this.status.textContent = t('loading');
    try {
      const { items, next } = await this.load(after);
      if (generation !== this.generation) return;
      const rows = items.map((item) => this.renderItem(item));
      if (after === null) replaceChildren(this.list, ...rows);
      else this.list.append(...rows);
      this.next = next ?? null;
      this.status.textContent = this.list.children.length === 0 ? this.empty : '';
      this.moreButton.hidden = this.next === null;
    } catch (error) {
      if (generation === this.generation) {
        if (after === null) replaceChildren(this.list);
        this.status.textContent = adminErrorText(error);
      }
    } finally {
      this.moreButton.disabled = false;
    }
    // The last page is in: the focus stays in the list rather than on a button that is gone.
    if (hadFocus && this.moreButton.hidden) this.list.focus();
  }
}
