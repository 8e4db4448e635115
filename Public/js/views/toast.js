// A short note at the bottom of the window ("Reported"), gone after a moment. It lives in a status region that is
// always in the page, so a screen reader reads each note. The region sits in a landmark of its own ("Notes"), so
// that a note, which shows outside the app's landmarks, is still inside one.
import { el } from '../dom.js';
import { t } from '../strings.js';

const TOAST_MS = 3_000;
let region = null;
let timer = null;

/** Shows `text` for a moment; `alert` for a refusal (read at once, in the danger colour). */
export function showToast(text, { alert = false } = {}) {
  if (!region?.isConnected) {
    region = el('div', { className: 'toast', id: 'toast', role: 'status', hidden: true });
    document.body.append(el('section', { 'aria-label': t('notes') }, region));
  }
  region.setAttribute('role', alert ? 'alert' : 'status');
  region.classList.toggle('danger', alert);
  region.textContent = text;
  region.hidden = false;
  clearTimeout(timer);
  timer = setTimeout(() => { region.hidden = true; }, TOAST_MS);
}
