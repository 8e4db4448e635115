// Administration → Reports (PROTOCOL.md §7.4): the reports of every room, open ones first to see (or resolved ones,
// or all), a page at a time, each resolved here with an action (see reportRow.js).
import { el } from '../dom.js';
import { t } from '../strings.js';
import { PagedList } from './adminList.js';
import { reportRow } from './reportRow.js';

export const REPORT_STATES = ['open', 'resolved', 'all'];

/** The choice of which reports a list shows (open, resolved, all); `onChange(state)` when another is chosen. */
export function reportStateChoice(id, onChange) {
  return el('label', { className: 'settings-row', for: id },
    el('span', { text: t('reportsState') }),
    el('select', { id, className: 'text-input', on: { change: (event) => onChange(event.target.value) } },
      REPORT_STATES.map((state) => el('option', { value: state, text: t(`reportsState_${state}`) }))));
}

export class AdminReportsView {
  constructor(client) {
    this.state = 'open';
    this.reports = new PagedList({
      id: 'admin-reports',
      label: t('reports'),
      empty: t('noReports'),
      load: async (after) => {
        const { reports, next } = await client.moderation.reports(null, this.state, after);
        await client.lookUpProfiles(reports.flatMap((report) => [report.author, report.reporter, report.resolvedBy]));
        return { items: reports, next };
      },
      renderItem: (report) => reportRow(client, report, { showRoom: true, admin: true }),
    });
    this.element = el('div', { className: 'me-view admin-view' },
      el('div', { className: 'settings-group' },
        reportStateChoice('report-state', (state) => {
          this.state = state;
          this.reports.reload();
        }),
        this.reports.element));
    this.reports.reload();
  }

  destroy() {}
}
