// One report of a message (PROTOCOL.md §7.4), in Administration → Reports and in a chat's info for its moderators:
// who wrote what, where (the room, in Administration), the reason and who reported it when; an open report has a
// choice of action and Resolve, a resolved one says who resolved it how. A refusal is said in the row.
import { el, replaceChildren } from '../dom.js';
import { describeError, t } from '../strings.js';
import { formatDateTime } from '../time.js';

// The actions a report is resolved with, in the order offered; the last is for administrators only.
const ACTIONS = ['dismiss', 'delete-message', 'remove-member', 'ban-member', 'deactivate-account'];

/** The label of an action (`delete-message` → its string). */
function actionLabel(action) {
  return t(`resolution_${action.replaceAll('-', '_')}`);
}

/**
 * The row of `report`. `client` names people and resolves; `showRoom`: name the room (every room's list);
 * `admin`: deactivating the author's account is offered.
 */
export function reportRow(client, report, { showRoom, admin }) {
  const row = el('li', { className: 'admin-row report-row', dataset: { id: String(report.id), state: report.resolution ? 'resolved' : 'open' } });
  const name = (person) => client.store.displayName(person?.id, person?.name ?? '');
  const render = (current, status = '') => {
    const author = name(current.author);
    const where = showRoom ? t('reportAuthorIn', { author, room: current.roomName ?? '' }) : author;
    const quoteID = `report-text-${current.id}`;
    replaceChildren(row, el('div', { className: 'admin-row-main' },
      el('span', { className: 'report-where', text: where }),
      el('blockquote', { className: 'report-quote', id: quoteID, 'aria-label': t('reportMessageOf', { name: author }) },
        el('span', { className: 'quote-text', text: current.text || t('previewDeleted') })),
      el('span', { className: 'report-reason-shown', text: t('reportReasonShown', { reason: current.reason }) }),
      el('span', { className: 'admin-row-detail', text: t('reportBy', { name: name(current.reporter), time: formatDateTime(current.date) }) }),
      current.resolution
        ? el('span', { className: 'report-resolution', text: t('resolvedAs', { name: name(current.resolvedBy), action: actionLabel(current.resolution) }) })
        : resolveForm(current, quoteID),
      el('p', { className: status.alert ? 'form-error' : 'form-status', role: status.alert ? 'alert' : 'status', text: status.text ?? '' })));
    row.dataset.state = current.resolution ? 'resolved' : 'open';
  };
  const resolveForm = (current, quoteID) => {
    const select = el('select', { className: 'text-input resolve-action', 'aria-label': t('resolveWith'), 'aria-describedby': quoteID },
      ACTIONS.filter((action) => admin || action !== 'deactivate-account')
        .map((action) => el('option', { value: action, text: actionLabel(action) })));
    return el('form', {
      className: 'resolve-form',
      on: {
        submit: async (event) => {
          event.preventDefault();
          const button = event.currentTarget.querySelector('button');
          button.disabled = true;
          try {
            render(await client.moderation.resolve(current.id, select.value), { text: t('reportResolved') });
          } catch (error) {
            button.disabled = false;
            render(current, { alert: true, text: error.code === 'not_allowed' ? t('moderationNotAllowed') : describeError(error) });
          }
          row.querySelector('select, [role="status"]')?.focus?.();
        },
      },
    }, select, el('button', { type: 'submit', className: 'button primary resolve-button', text: t('resolve'), 'aria-describedby': quoteID }));
  };
  render(report);
  return row;
}
