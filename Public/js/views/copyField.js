// A link to hand to someone (an invitation, a password reset) or a secret to hand to a program (a bot's token, a
// webhook's URL): shown whole in a read-only field, so it can also be selected by hand, with a Copy button that says
// when it copied.
import { el } from '../dom.js';
import { copyText } from '../clipboard.js';
import { t } from '../strings.js';

const COPIED_SHOWN_MS = 2_000;

/** `id` names the field; its button is `${id}-copy`, named `copyLabel` (Copy link unless said). */
export function copyField({ id, label, value, copyLabel = t('copyLink') }) {
  const input = el('input', { type: 'text', className: 'text-input copy-input', id, readOnly: true, value, 'aria-label': label });
  const announcer = el('span', { className: 'visually-hidden', role: 'status' });
  const button = el('button', {
    type: 'button', className: 'button', id: `${id}-copy`, text: copyLabel,
    on: {
      click: async () => {
        await copyText(value);
        button.textContent = t('copied');
        announcer.textContent = t('copied');
        setTimeout(() => {
          button.textContent = copyLabel;
          announcer.textContent = '';
        }, COPIED_SHOWN_MS);
      },
    },
  });
  return el('div', { className: 'copy-field' }, input, button, announcer);
}
