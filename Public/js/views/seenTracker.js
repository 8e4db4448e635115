// What of a message list a person has actually seen: a message counts once at least half of it (or half the list's
// height, for a tall one) was on screen while the page was visible and focused. The chat sends `read` only up to
// the newest message seen this way, never up to what merely arrived.

const SEEN_RATIO = 0.5;

/** Whether a person can be looking at the page now. */
export function pageIsSeen() {
  return document.visibilityState === 'visible' && document.hasFocus();
}

export class SeenTracker {
  /** `onSeen(seq)` gets the newest seq on screen whenever it may have changed (the receiver ignores repeats). */
  constructor(root, onSeen) {
    this.onSeen = onSeen;
    this.visible = new Set(); // seqs of the message nodes on screen now
    this.observer = new IntersectionObserver((entries) => this.changed(entries), { root, threshold: [0, 0.25, SEEN_RATIO, 1] });
    this.recheck = () => this.report();
    document.addEventListener('visibilitychange', this.recheck);
    window.addEventListener('focus', this.recheck);
  }

  /** Watches a message node (one with data-seq); nodes of pending messages are ignored. */
  watch(node) {
    if (node.dataset.seq) this.observer.observe(node);
  }

  unwatch(node) {
    if (!node.dataset.seq) return;
    this.observer.unobserve(node);
    this.visible.delete(Number(node.dataset.seq));
  }

  /**
   * Measures the messages at the end of `container` now, without waiting for the observer's next report: a message
   * that arrives while the list sits at the bottom is read at once, not a frame later.
   */
  measureEnd(container) {
    const root = this.observer.root.getBoundingClientRect();
    for (let node = container.lastElementChild; node; node = node.previousElementSibling) {
      const box = node.getBoundingClientRect();
      if (box.bottom < root.top) break;
      if (!node.dataset.seq) continue;
      const shown = Math.min(box.bottom, root.bottom) - Math.max(box.top, root.top);
      const seq = Number(node.dataset.seq);
      if (shown > 0 && shown >= Math.min(box.height, root.height) * SEEN_RATIO) this.visible.add(seq);
      else this.visible.delete(seq);
    }
    this.report();
  }

  changed(entries) {
    for (const entry of entries) {
      const seq = Number(entry.target.dataset.seq);
      const rootHeight = entry.rootBounds?.height ?? Infinity;
      const seen = entry.isIntersecting
        && (entry.intersectionRatio >= SEEN_RATIO || entry.intersectionRect.height >= rootHeight * SEEN_RATIO);
      if (seen) this.visible.add(seq);
      else this.visible.delete(seq);
    }
    this.report();
  }

  /** Reports the newest message on screen, if the page is seen now. */
  report() {
    if (!pageIsSeen() || this.visible.size === 0) return;
    this.onSeen(Math.max(...this.visible));
  }

  destroy() {
    this.observer.disconnect();
    document.removeEventListener('visibilitychange', this.recheck);
    window.removeEventListener('focus', this.recheck);
  }
}
