// A chat's details, in a modal dialog from its header: kind and member count, mute (kept in this browser), and for
// channels and groups their members (loaded when the dialog opens, with presence), inviting someone by username and
// leaving. A group (any member) or a channel (its creator: the server says no to anyone else) can be renamed here:
// Rename turns the title into a field, Enter or Save renames, Escape or Cancel goes back; a refusal is shown under
// the field and nothing changes. Direct chats and the lobby (which nobody created) offer no Rename. A direct chat
// offers Block (or Unblock) of the other person instead (PROTOCOL.md §10.7).
import { el, icon, ICONS, replaceChildren } from '../dom.js';
import { avatarElement, profileAvatar } from '../avatar.js';
import { LAST_SEEN_LOOKUPS, statusOf } from '../presenceText.js';
import { errorText, t } from '../strings.js';
import { navigate } from '../router.js';
import { BlockControl } from './blockControl.js';
import { canModerate } from '../moderation.js';
import { memberActions, memberTags } from './memberModeration.js';
import { BansList } from './bansList.js';
import { RoomReports } from './roomReports.js';

export class RoomInfo {
  constructor(client, roomID) {
    this.client = client;
    this.store = client.store;
    this.roomID = roomID;
    this.opener = null;
    this.body = el('div', { className: 'dialog-body' });
    this.element = el('dialog', {
      className: 'room-info',
      id: 'room-info',
      'aria-labelledby': 'room-info-title',
      on: {
        close: () => this.opener?.focus(),
        click: (event) => { if (event.target === this.element) this.close(); },
      },
    }, this.body);
    // Only the details follow changes while the dialog is open: rebuilding it would lose what is being typed.
    this.unsubscribers = [
      this.store.on('rooms', () => { if (this.element.open) this.refresh(); }),
      this.store.on(`room:${roomID}`, () => { if (this.element.open) this.noticeNewMember(); }),
      this.store.on('presence', () => { if (this.element.open) this.renderMembers(); }),
      this.store.on('connection', () => { if (this.element.open) this.renderMembers(); }),
    ];
    this.memberProfiles = null;
    this.reloadedFor = new Set(); // senders the members were loaded again for (once each: they may have left since)
  }

  open(opener) {
    this.opener = opener;
    this.render();
    if (!this.element.open) this.element.showModal();
    this.element.querySelector('input, button:not(.dialog-close)')?.focus();
  }

  close() {
    if (this.element.open) this.element.close();
  }

  render() {
    const room = this.store.rooms.get(this.roomID);
    if (!room) {
      this.close();
      return;
    }
    const shared = room.kind !== 'direct';
    const peer = room.kind === 'direct' ? room.peer : null;
    this.title = el('h2', { className: 'dialog-title', id: 'room-info-title' });
    this.renameButton = canOfferRename(room) ? el('button', {
      type: 'button', className: 'link-button rename-button', id: 'rename-room', text: t('rename'),
      'aria-describedby': 'room-info-title', on: { click: () => this.startRename() },
    }) : null;
    this.renameForm = null;
    this.kind = el('p', { className: 'room-info-kind', id: 'room-info-kind' });
    this.status = el('p', { className: 'form-status', id: 'invite-status', role: 'status' });
    this.inviteInput = el('input', {
      type: 'text', id: 'invite-username', className: 'text-input', autocomplete: 'off', autocapitalize: 'none',
      spellcheck: 'false', required: true, 'aria-label': t('inviteUsername'), placeholder: t('inviteUsername'),
    });
    this.memberList = el('ul', { className: 'member-list', id: 'room-info-members', 'aria-labelledby': 'room-info-members-title', tabindex: '-1' });
    this.moderationError = el('p', { className: 'form-error moderation-error', id: 'moderation-error', role: 'alert' });
    const moderating = shared && canModerate(this.client.myRank(room.id));
    this.bans = moderating ? new BansList(this.client, room.id, { onRefused: (text) => { this.moderationError.textContent = text; } }) : null;
    const reports = moderating ? new RoomReports(this.client, room.id) : null;
    this.memberProfiles = null;
    const muted = this.client.notifier.isMuted(room.id);
    replaceChildren(this.body,
      el('header', { className: 'dialog-header' },
        this.title,
        this.renameButton,
        el('button', { type: 'button', className: 'icon-button dialog-close', 'aria-label': t('close'), on: { click: () => this.close() } }, icon(ICONS.close))),
      this.kind,
      el('label', { className: 'settings-row toggle-row' },
        el('span', { text: t('muteChat') }),
        el('input', {
          type: 'checkbox', id: 'mute-chat', checked: muted,
          on: { change: (event) => this.client.notifier.setMuted(room.id, event.target.checked) },
        })),
      shared && el('h3', { className: 'section-title', id: 'room-info-members-title', text: t('memberList') }),
      shared && this.memberList,
      shared && this.moderationError,
      this.bans?.element,
      reports?.element,
      shared && el('form', { className: 'invite-form', id: 'invite-form', on: { submit: (event) => this.invite(event) } },
        el('h3', { className: 'section-title', text: t('invite') }),
        el('div', { className: 'inline-form-row' }, this.inviteInput, el('button', { type: 'submit', className: 'button primary', text: t('invite') }))),
      shared && this.status,
      shared && el('button', { type: 'button', className: 'button danger wide', id: 'leave-room', text: t('leave'), on: { click: () => this.leave() } }),
      peer && new BlockControl(this.client.myData, peer).element);
    this.refresh();
    if (shared) this.loadMembers();
  }

  // MARK: renaming

  /** Turns the title into a field holding the name, focused and selected. */
  startRename() {
    const room = this.store.rooms.get(this.roomID);
    if (!room || this.renameForm) return;
    const label = t(room.kind === 'channel' ? 'roomName_channel' : 'roomName_group');
    this.renameInput = el('input', {
      type: 'text', id: 'room-name-input', className: 'text-input', autocomplete: 'off', spellcheck: 'false',
      'aria-label': label, 'aria-describedby': 'rename-error',
      on: {
        keydown: (event) => {
          // Escape leaves the field, not the dialog.
          if (event.key !== 'Escape') return;
          event.preventDefault();
          event.stopPropagation();
          this.endRename();
        },
        input: () => this.showRenameError(null),
      },
    });
    this.renameInput.value = room.name;
    this.renameError = el('p', { className: 'form-error rename-error', id: 'rename-error', role: 'alert' });
    this.renameSave = el('button', { type: 'submit', className: 'button primary', id: 'rename-save', text: t('save') });
    this.renameForm = el('form', {
      className: 'rename-form', id: 'rename-form', 'aria-label': label, noValidate: true,
      on: { submit: (event) => this.saveRename(event) },
    },
    this.renameInput,
    el('div', { className: 'rename-actions' },
      this.renameError,
      el('button', { type: 'button', className: 'button', id: 'rename-cancel', text: t('cancel'), on: { click: () => this.endRename() } }),
      this.renameSave));
    this.title.hidden = true;
    this.renameButton.hidden = true;
    this.title.after(this.renameForm);
    this.renameInput.focus();
    this.renameInput.select();
  }

  /** Back to the title (the name as the room has it now), with the focus on Rename. */
  endRename() {
    if (!this.renameForm) return;
    this.renameForm.remove();
    this.renameForm = null;
    this.title.hidden = false;
    this.renameButton.hidden = false;
    this.refresh();
    this.renameButton.focus();
  }

  async saveRename(event) {
    event.preventDefault();
    const room = this.store.rooms.get(this.roomID);
    const form = this.renameForm;
    const save = this.renameSave;
    if (!room || !form || save.disabled) return;
    const name = this.renameInput.value.trim();
    if (name === room.name) {
      this.endRename(); // the same name: nothing to change
      return;
    }
    this.showRenameError(null);
    save.disabled = true;
    form.setAttribute('aria-busy', 'true');
    try {
      await this.client.renameRoom(this.roomID, name);
      if (form === this.renameForm) this.endRename();
    } catch (error) {
      if (form !== this.renameForm) return;
      this.showRenameError(error.code === 'rate_limited' && error.retryAfter
        ? t('error_rate_limited_seconds', { seconds: error.retryAfter })
        : errorText(error.code));
      this.renameInput.focus();
    } finally {
      save.disabled = false;
      form.removeAttribute('aria-busy');
    }
  }

  /** The server's reason under the field (or none); the field is marked invalid while it shows. */
  showRenameError(text) {
    if (!this.renameError) return;
    this.renameError.textContent = text ?? '';
    if (text) this.renameInput.setAttribute('aria-invalid', 'true');
    else this.renameInput.removeAttribute('aria-invalid');
  }

  /** Asks the server for the members (each time the dialog opens: people join and leave). */
  async loadMembers() {
    const list = this.memberList;
    try {
      const members = await this.client.members(this.roomID);
      if (list !== this.memberList) return; // rendered again meanwhile
      this.memberProfiles = members;
      this.renderMembers();
    } catch (error) {
      if (list !== this.memberList) return;
      replaceChildren(list, el('li', { className: 'member-list-status', text: error.code === 'unreachable' ? errorText(error.code) : t('membersUnavailable') }));
    }
  }

  /**
   * The server tells nobody but the newcomer that someone joined (§9.6): a message from someone the list does not
   * have means it is out of date, so it is loaded again.
   */
  noticeNewMember() {
    const sender = this.store.rooms.get(this.roomID)?.lastMessage?.sender;
    if (!this.memberProfiles || !sender?.id || sender.via || this.reloadedFor.has(sender.id)) return;
    if (this.memberProfiles.some((profile) => profile.id === sender.id)) return;
    this.reloadedFor.add(sender.id);
    this.loadMembers();
    this.client.membersChanged(this.roomID);
  }

  renderMembers() {
    if (!this.memberList || !this.memberProfiles) return;
    const room = this.store.rooms.get(this.roomID);
    const moderating = {
      myRank: this.client.myRank(this.roomID),
      lobby: this.roomID === 'lobby',
      onDone: () => this.moderated(),
      onRefused: (text) => { this.moderationError.textContent = text; },
    };
    replaceChildren(this.memberList, this.memberProfiles.map((profile, index) => {
      const { presence, text: status } = statusOf(this.client, profile.id, { lookUp: index < LAST_SEEN_LOOKUPS });
      const online = presence?.online === true;
      const name = profile.displayName || profile.username;
      return el('li', { className: 'member-row', dataset: { username: profile.username } },
        el('span', { className: 'avatar-wrap' },
          avatarElement(profileAvatar(profile)),
          el('span', { className: `presence-dot${online ? ' online' : ''}${presence ? '' : ' unknown'}`, 'aria-hidden': 'true' })),
        el('span', { className: 'member-main' },
          el('span', { className: 'member-name-row' },
            el('span', { className: 'member-name', text: profile.id === this.store.me.id ? `${name} (${t('you')})` : name }),
            memberTags(profile)),
          el('span', { className: 'member-detail', text: `@${profile.username} · ${status}` }),
          room && room.kind !== 'direct' && memberActions(this.client, this.roomID, profile, moderating)));
    }));
  }

  /** A change made from the list: the members (and who is banned) as they are now, the focus back on the list. */
  async moderated() {
    this.moderationError.textContent = '';
    this.client.membersChanged(this.roomID);
    await Promise.all([this.loadMembers(), this.bans?.load()]);
    this.memberList.focus();
  }

  /** The name, kind and member count as they are now; closes when the room is gone (left on another device). */
  refresh() {
    const room = this.store.rooms.get(this.roomID);
    if (!room) {
      this.close();
      return;
    }
    const members = this.client.memberCount(room.id);
    const kind = room.kind === 'direct' ? t('directChat') : room.kind === 'group' ? t('group') : t('channel');
    this.title.textContent = room.name;
    this.kind.textContent = members ? `${kind} · ${members === 1 ? t('member') : t('members', { count: members })}` : kind;
  }

  async invite(event) {
    event.preventDefault();
    const username = this.inviteInput.value.trim();
    if (!username) return;
    this.status.textContent = '';
    try {
      await this.client.invite(this.roomID, username);
      this.inviteInput.value = '';
      this.status.textContent = t('invited', { name: username });
      this.loadMembers();
    } catch (error) {
      this.status.textContent = errorText(error.code);
    }
  }

  async leave() {
    const room = this.store.rooms.get(this.roomID);
    if (!room || !window.confirm(t('confirmLeave', { name: room.name }))) return;
    try {
      await this.client.leave(this.roomID);
      this.close();
      navigate('chats');
    } catch (error) {
      this.status.textContent = errorText(error.code);
    }
  }

  destroy() {
    this.unsubscribers.forEach((unsubscribe) => unsubscribe());
    this.close();
  }
}

/** Groups can be renamed by any member, channels by their creator (not known here: the server decides), not the lobby. */
function canOfferRename(room) {
  return room.kind === 'group' || (room.kind === 'channel' && room.id !== 'lobby');
}
