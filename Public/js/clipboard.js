// Copying text for the person: the Clipboard API, or the older way when the browser refuses it (an insecure origin,
// no permission).
import { el } from './dom.js';

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = el('textarea', { className: 'visually-hidden', 'aria-hidden': 'true' });
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
}
