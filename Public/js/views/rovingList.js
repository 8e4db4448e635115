// One tab stop for a whole list (WAI-ARIA "roving tabindex"): the current item has tabindex 0 and everything else
// in the list -1. ↑/↓ (and Home/End) move between items, →/← between the controls inside the current item, Escape
// goes back from a control to its item, and Enter or the context-menu key (Shift+F10) asks for the item's menu.

const FOCUSABLE = 'button, a[href], input, select, textarea, [tabindex]';

export class RovingList {
  /** `onMenu(item)` opens the item's menu. */
  constructor(container, itemSelector, { onMenu }) {
    Object.assign(this, { container, itemSelector, onMenu });
    this.current = null;
    container.addEventListener('keydown', (event) => this.keyDown(event));
    container.addEventListener('focusin', (event) => {
      const item = event.target.closest(itemSelector);
      if (item && container.contains(item)) this.setCurrent(item);
    });
  }

  items() {
    return [...this.container.querySelectorAll(this.itemSelector)];
  }

  /** After the list changed: controls inside items leave the tab order, and one item stays in it. */
  refresh() {
    const items = this.items();
    for (const control of this.container.querySelectorAll(FOCUSABLE)) {
      if (!control.matches(this.itemSelector)) control.tabIndex = -1;
    }
    if (!this.current || !this.current.isConnected) this.current = items.at(-1) ?? null;
    for (const item of items) item.tabIndex = item === this.current ? 0 : -1;
  }

  setCurrent(item) {
    if (this.current === item) return;
    if (this.current?.isConnected) this.current.tabIndex = -1;
    this.current = item;
    item.tabIndex = 0;
  }

  focusItem(item) {
    if (!item) return;
    this.setCurrent(item);
    item.focus();
  }

  keyDown(event) {
    const item = event.target.closest(this.itemSelector);
    if (!item) return;
    const onItem = event.target === item;
    const items = this.items();
    const index = items.indexOf(item);
    const controls = [...item.querySelectorAll(FOCUSABLE)].filter((control) => control.offsetParent !== null);
    const controlIndex = controls.indexOf(event.target);
    let handled = true;
    switch (event.key) {
      case 'ArrowDown': this.focusItem(items[index + 1]); break;
      case 'ArrowUp': this.focusItem(items[index - 1]); break;
      case 'Home': this.focusItem(items[0]); break;
      case 'End': this.focusItem(items.at(-1)); break;
      case 'ArrowRight': controls[Math.min(controls.length - 1, controlIndex + 1)]?.focus(); break;
      case 'ArrowLeft':
        if (controlIndex <= 0) item.focus();
        else controls[controlIndex - 1].focus();
        break;
      case 'Escape':
        if (onItem) handled = false;
        else item.focus();
        break;
      case 'Enter':
        if (onItem) this.onMenu(item);
        else handled = false;
        break;
      case 'ContextMenu': this.onMenu(item); break;
      case 'F10':
        if (event.shiftKey) this.onMenu(item);
        else handled = false;
        break;
      default: handled = false;
    }
    if (handled) event.preventDefault();
  }
}
