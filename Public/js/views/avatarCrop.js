// The crop dialog of a new picture (§6.5): the image on a canvas with the square that will be kept marked, moved by
// dragging or the arrow keys, scaled by a slider (or + and -). Saving draws that square at 256×256 and resolves with
// it as a WebP (a PNG where the browser makes no WebP); cancelling resolves with null.
import { el, icon, ICONS } from '../dom.js';
import { t } from '../strings.js';

const VIEW = 280; // the canvas's side in CSS pixels
const CROP = 240; // the kept square's side, centred in the canvas
const MARGIN = (VIEW - CROP) / 2;
const OUTPUT = 256;
const MAX_ZOOM = 4;
const KEY_STEP = 8;

/**
 * Opens the dialog over `image` (an HTMLImageElement that has loaded); resolves with a Blob or null. It goes in the
 * landmark of `opener` (so no content stands outside a landmark) and gives the focus back to it when it closes.
 */
export function cropPicture(image, opener) {
  return new Promise((resolve) => new CropDialog(image, opener, resolve).open());
}

class CropDialog {
  constructor(image, opener, resolve) {
    Object.assign(this, { image, opener, resolve });
    this.cover = CROP / Math.min(image.naturalWidth, image.naturalHeight); // the scale at which the image just fills the square
    this.zoom = 1;
    this.centre = { x: image.naturalWidth / 2, y: image.naturalHeight / 2 }; // the image point at the square's centre
    this.result = null;
    this.canvas = el('canvas', {
      className: 'crop-canvas',
      width: String(VIEW * devicePixelRatio),
      height: String(VIEW * devicePixelRatio),
      tabindex: '0',
      role: 'img',
      'aria-label': t('cropArea'),
      on: { pointerdown: (event) => this.dragStart(event), keydown: (event) => this.key(event) },
    });
    this.slider = el('input', {
      type: 'range', id: 'crop-zoom', className: 'crop-zoom', min: '1', max: String(MAX_ZOOM), step: '0.01', value: '1',
      on: { input: () => this.setZoom(Number(this.slider.value)) },
    });
    this.element = el('dialog', {
      className: 'crop-dialog', id: 'crop-dialog', 'aria-labelledby': 'crop-title',
      on: { close: () => this.closed() },
    }, el('div', { className: 'dialog-body' },
      el('header', { className: 'dialog-header' },
        el('h2', { className: 'dialog-title', id: 'crop-title', text: t('cropPicture') }),
        el('button', { type: 'button', className: 'icon-button dialog-close', 'aria-label': t('close'), on: { click: () => this.element.close() } }, icon(ICONS.close))),
      el('p', { className: 'crop-hint', id: 'crop-hint', text: t('cropHint') }),
      this.canvas,
      el('label', { className: 'crop-zoom-row', for: 'crop-zoom' }, el('span', { text: t('zoom') }), this.slider),
      el('div', { className: 'dialog-actions' },
        el('button', { type: 'button', className: 'button', id: 'crop-cancel', text: t('cancel'), on: { click: () => this.element.close() } }),
        el('button', { type: 'button', className: 'button primary', id: 'crop-save', text: t('usePicture'), on: { click: () => this.save() } }))));
    this.canvas.setAttribute('aria-describedby', 'crop-hint');
  }

  open() {
    (this.opener.closest('main, section, nav, aside') ?? document.body).append(this.element);
    this.element.showModal();
    this.draw();
    this.canvas.focus();
  }

  closed() {
    this.element.remove();
    this.opener.focus();
    this.resolve(this.result);
  }

  async save() {
    const output = el('canvas', { width: String(OUTPUT), height: String(OUTPUT) });
    this.paint(output.getContext('2d'), OUTPUT / CROP, 0);
    this.result = await new Promise((resolve) => output.toBlob(resolve, 'image/webp', 0.9));
    this.element.close();
  }

  /** The scale from image pixels to canvas pixels. */
  scale() {
    return this.cover * this.zoom;
  }

  /** Keeps the square inside the image: there is never an empty corner in the picture. */
  clamp() {
    const half = CROP / 2 / this.scale();
    const { naturalWidth: width, naturalHeight: height } = this.image;
    this.centre.x = Math.min(Math.max(this.centre.x, half), width - half);
    this.centre.y = Math.min(Math.max(this.centre.y, half), height - half);
  }

  /** Draws the image as the square sees it; `ratio` is output pixels per CSS pixel, `margin` the square's offset. */
  paint(context, ratio, margin) {
    const scale = this.scale() * ratio;
    const x = (margin + CROP / 2) * ratio - this.centre.x * scale;
    const y = (margin + CROP / 2) * ratio - this.centre.y * scale;
    context.imageSmoothingQuality = 'high';
    context.drawImage(this.image, x, y, this.image.naturalWidth * scale, this.image.naturalHeight * scale);
  }

  draw() {
    const context = this.canvas.getContext('2d');
    const ratio = devicePixelRatio;
    context.clearRect(0, 0, this.canvas.width, this.canvas.height);
    this.paint(context, ratio, MARGIN);
    // Outside the square is dimmed; the square has a white edge.
    context.fillStyle = 'rgba(0, 0, 0, 0.55)';
    context.beginPath();
    context.rect(0, 0, VIEW * ratio, VIEW * ratio);
    context.rect(MARGIN * ratio, MARGIN * ratio, CROP * ratio, CROP * ratio);
    context.fill('evenodd');
    context.strokeStyle = '#fff';
    context.lineWidth = 2 * ratio;
    context.strokeRect(MARGIN * ratio, MARGIN * ratio, CROP * ratio, CROP * ratio);
  }

  move(dx, dy) {
    this.centre.x -= dx / this.scale();
    this.centre.y -= dy / this.scale();
    this.clamp();
    this.draw();
  }

  setZoom(zoom) {
    this.zoom = Math.min(Math.max(zoom, 1), MAX_ZOOM);
    this.slider.value = String(this.zoom);
    this.clamp();
    this.draw();
  }

  dragStart(event) {
    event.preventDefault();
    this.canvas.setPointerCapture(event.pointerId);
    let last = { x: event.clientX, y: event.clientY };
    const moved = (move) => {
      this.move(move.clientX - last.x, move.clientY - last.y);
      last = { x: move.clientX, y: move.clientY };
    };
    const ended = () => {
      this.canvas.removeEventListener('pointermove', moved);
      this.canvas.removeEventListener('pointerup', ended);
      this.canvas.removeEventListener('pointercancel', ended);
    };
    this.canvas.addEventListener('pointermove', moved);
    this.canvas.addEventListener('pointerup', ended);
    this.canvas.addEventListener('pointercancel', ended);
  }

  key(event) {
    const steps = { ArrowLeft: [-KEY_STEP, 0], ArrowRight: [KEY_STEP, 0], ArrowUp: [0, -KEY_STEP], ArrowDown: [0, KEY_STEP] };
    if (steps[event.key]) this.move(...steps[event.key]);
    else if (event.key === '+' || event.key === '=') this.setZoom(this.zoom + 0.1);
    else if (event.key === '-') this.setZoom(this.zoom - 0.1);
    else if (event.key === 'Enter') this.save();
    else return;
    event.preventDefault();
  }
}
