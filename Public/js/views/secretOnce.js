// A secret the server shows once (a bot's token, a webhook's URL or signing key, PROTOCOL.md §9.13, §9.14): in a
// field with Copy, under a warning that it will not be shown again. Nothing keeps it once the page is left.
import { el } from '../dom.js';
import { t } from '../strings.js';
import { copyField } from './copyField.js';

/** `warning`: what to do now, said before the field (and read with it: the field is described by it). */
export function secretOnce({ id, label, value, warning }) {
  const warningID = `${id}-warning`;
  const field = copyField({ id, label, value, copyLabel: t('copySecret') });
  field.querySelector('input').setAttribute('aria-describedby', warningID);
  return el('div', { className: 'secret-once', dataset: { secret: id } },
    el('p', { className: 'secret-warning', id: warningID, role: 'status', text: warning }),
    field);
}
