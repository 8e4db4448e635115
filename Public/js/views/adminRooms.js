// Administration → Rooms (PROTOCOL.md §10.5): every room, direct ones too, a page at a time: its kind, name,
// members and last activity. Nothing that was said in it is shown (the server does not give it).
import { el } from '../dom.js';
import { avatarElement, roomAvatar } from '../avatar.js';
import { t } from '../strings.js';
import { formatLastSeen } from '../time.js';
import { PagedList } from './adminList.js';

const KIND_LABELS = { channel: 'channel', group: 'group', direct: 'directChat' };

export class AdminRoomsView {
  constructor(client) {
    this.rooms = new PagedList({
      id: 'admin-rooms',
      label: t('adminRooms'),
      empty: t('noRooms'),
      load: async (after) => {
        const { rooms, next } = await client.administration.rooms(after);
        return { items: rooms, next };
      },
      renderItem: (room) => roomRow(room),
    });
    this.element = el('div', { className: 'me-view admin-view' }, el('div', { className: 'settings-group' }, this.rooms.element));
    this.rooms.reload();
  }

  destroy() {}
}

function roomRow(room) {
  const kind = KIND_LABELS[room.kind] ? t(KIND_LABELS[room.kind]) : room.kind;
  // The server names no direct room (its name is each member's view of the other): it reads as its kind.
  const name = room.name || kind;
  const members = room.members === 1 ? t('member') : t('members', { count: room.members });
  const activity = room.lastActivity ? t('lastActivity', { time: formatLastSeen(room.lastActivity) }) : t('noActivity');
  return el('li', { className: 'admin-row', dataset: { roomId: room.id, kind: room.kind } },
    avatarElement(roomAvatar({ id: room.id, kind: room.kind, name })),
    el('span', { className: 'admin-row-main' },
      el('span', { className: 'admin-row-title' }, el('span', { className: 'admin-row-name', text: name })),
      el('span', { className: 'admin-row-detail', text: `${kind} · ${members} · ${activity}` })));
}
