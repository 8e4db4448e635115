// The pages under Me (#/me/<page>): Me itself, Mentions of me, My data, Bots, and Administration with its lists and an
// account's page.
// Each is a view {element, destroy()}; this adds the title the top bar shows and the page its Back button opens.
import { t } from '../strings.js';
import { MeView } from './me.js';
import { MyDataView } from './myData.js';
import { BotsView } from './bots.js';
import { MentionsListView } from './mentionsList.js';
import { AdminHomeView } from './adminHome.js';
import { AdminUsersView } from './adminUsers.js';
import { AdminUserView } from './adminUser.js';
import { AdminInvitesView } from './adminInvites.js';
import { AdminRoomsView } from './adminRooms.js';
import { AdminAuditView } from './adminAudit.js';
import { AdminReportsView } from './adminReports.js';

// `path` matches the page's address after #/me/; what it captures is passed to the view after the client.
const PAGES = [
  { path: /^mentions$/, View: MentionsListView, title: 'mentionsTitle', back: 'me' },
  { path: /^data$/, View: MyDataView, title: 'myData', back: 'me' },
  { path: /^bots$/, View: BotsView, title: 'bots', back: 'me' },
  { path: /^admin$/, View: AdminHomeView, title: 'administration', back: 'me' },
  { path: /^admin\/users$/, View: AdminUsersView, title: 'adminUsers', back: 'me/admin' },
  { path: /^admin\/users\/([^/]+)$/, View: AdminUserView, title: 'userDetails', back: 'me/admin/users' },
  { path: /^admin\/invites$/, View: AdminInvitesView, title: 'adminInvites', back: 'me/admin' },
  { path: /^admin\/rooms$/, View: AdminRoomsView, title: 'adminRooms', back: 'me/admin' },
  { path: /^admin\/audit$/, View: AdminAuditView, title: 'adminAudit', back: 'me/admin' },
  { path: /^admin\/reports$/, View: AdminReportsView, title: 'reports', back: 'me/admin' },
];

/** The view of Me's page `page` ('' is Me itself, and so is a page that does not exist). */
export function mePage(client, page) {
  for (const { path, View, title, back } of PAGES) {
    const match = path.exec(page);
    if (match) return Object.assign(new View(client, ...match.slice(1)), { title: t(title), backPath: back });
  }
  return new MeView(client);
}

