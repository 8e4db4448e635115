// A full-window image viewer: a modal <dialog>, so focus stays inside and Escape closes it.
import { el, icon, ICONS } from '../dom.js';
import { t } from '../strings.js';

export class ImageViewer {
  constructor() {
    this.image = el('img', { className: 'viewer-image', alt: '' });
    this.closeButton = el('button', {
      type: 'button',
      className: 'icon-button viewer-close',
      'aria-label': t('closeViewer'),
      on: { click: () => this.close() },
    }, icon(ICONS.close));
    this.element = el('dialog', {
      className: 'image-viewer',
      id: 'image-viewer',
      // A click on the backdrop (the dialog itself, not the picture or the button) closes it.
      on: { click: (event) => { if (event.target === this.element) this.close(); } },
    }, this.closeButton, this.image);
  }

  open(src, alt) {
    this.image.src = src;
    this.image.alt = alt;
    this.element.setAttribute('aria-label', alt);
    if (!this.element.open) this.element.showModal();
    this.closeButton.focus();
  }

  close() {
    if (this.element.open) this.element.close();
  }
}
