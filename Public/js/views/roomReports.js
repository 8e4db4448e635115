// A chat's reports, in its info, for its moderators, owner and the administrators (PROTOCOL.md §7.4): open ones
// unless another choice is made, each resolved there (deactivating an account is for administrators only).
import { el } from '../dom.js';
import { t } from '../strings.js';
import { PagedList } from './adminList.js';
import { reportStateChoice } from './adminReports.js';
import { reportRow } from './reportRow.js';

export class RoomReports {
  constructor(client, roomID) {
    this.state = 'open';
    this.reports = new PagedList({
      id: 'room-reports',
      label: t('reports'),
      empty: t('noReports'),
      load: async (after) => {
        const { reports, next } = await client.moderation.reports(roomID, this.state, after);
        await client.lookUpProfiles(reports.flatMap((report) => [report.author, report.reporter, report.resolvedBy]));
        return { items: reports, next };
      },
      renderItem: (report) => reportRow(client, report, { showRoom: false, admin: client.me.admin === true }),
    });
    this.element = el('section', { className: 'room-reports', 'aria-labelledby': 'room-reports-title' },
      el('h3', { className: 'section-title', id: 'room-reports-title', text: t('reports') }),
      reportStateChoice('room-report-state', (state) => {
        this.state = state;
        this.reports.reload();
      }),
      this.reports.element);
    this.reports.reload();
  }
}
