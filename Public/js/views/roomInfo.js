// A chat's details, in a modal dialog from its header: kind and member count, its notification level (all messages,
// only mentions of me, nothing: kept by the server for every device of the account, §9.10), and for
// channels and groups their members (roomMembers.js: with presence, roles, what I may do to each, and for moderators
// who is banned and the chat's reports), inviting someone by username and leaving. A group (any member) or a channel (its creator: the server says no to anyone else) can be renamed here:
// Rename turns the title into a field, Enter or Save renames, Escape or Cancel goes back; a refusal is shown under
// the field and nothing changes. Direct chats and the lobby (which nobody created) offer no Rename. A direct chat
// offers Block (or Unblock) of the other person instead (PROTOCOL.md §10.7). Its owner and moderators also see its
// Integrations: incoming webhooks and the bots among its members (roomIntegrations.js, §9.13, §9.14).
import { el, icon, ICONS, replaceChildren } from '../dom.js';
import { errorText, t } from '../strings.js';
import { NOTIFICATION_LEVELS } from '../store.js';
import { navigate } from '../router.js';
import { BlockControl } from './blockControl.js';
import { RoomMembers } from './roomMembers.js';
import { RoomIntegrations } from './roomIntegrations.js';
import { canModerate } from '../moderation.js';
import { pictureControls } from './avatarPicker.js';

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
      // Someone joined, left or has another role: the list as it is now.
      this.store.on('live-line', () => {
        const { room, event } = this.store.lastLiveLine;
        if (this.element.open && room.id === roomID && event.kind !== 'rename') this.members?.load();
      }),
      this.store.on('presence', () => { if (this.element.open) this.members?.render(); }),
      this.store.on('connection', () => { if (this.element.open) this.members?.render(); }),
    ];
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
    this.members = shared ? new RoomMembers(this.client, room.id) : null;
    this.levelStatus = el('p', { className: 'form-status', id: 'notify-level-status', role: 'status' });
    this.levelInputs = NOTIFICATION_LEVELS.map((level) => el('input', {
      type: 'radio', name: 'notify-level', id: `notify-level-${level}`, value: level,
      on: { change: () => this.changeLevel(level) },
    }));
    replaceChildren(this.body,
      el('header', { className: 'dialog-header' },
        this.title,
        this.renameButton,
        el('button', { type: 'button', className: 'icon-button dialog-close', 'aria-label': t('close'), on: { click: () => this.close() } }, icon(ICONS.close))),
      this.kind,
      canChangePicture(room) && this.pictureControls(),
      el('fieldset', { className: 'notify-levels', id: 'notify-levels' },
        el('legend', { className: 'section-title', text: t('notifyLevel') }),
        this.levelInputs.map((input) => el('label', { className: 'settings-row toggle-row', for: input.id },
          el('span', { text: t(`notifyLevel_${input.value}`) }), input)),
        this.levelStatus),
      this.members?.element,
      shared && el('form', { className: 'invite-form', id: 'invite-form', on: { submit: (event) => this.invite(event) } },
        el('h3', { className: 'section-title', text: t('invite') }),
        el('div', { className: 'inline-form-row' }, this.inviteInput, el('button', { type: 'submit', className: 'button primary', text: t('invite') }))),
      shared && this.status,
      shared && canModerate(this.client.myRank(room.id)) && new RoomIntegrations(this.client, room.id).element,
      shared && el('button', { type: 'button', className: 'button danger wide', id: 'leave-room', text: t('leave'), on: { click: () => this.leave() } }),
      peer && new BlockControl(this.client.myData, peer).element);
    this.refresh();
  }

  /** The room's picture (§7.7), for its owner and moderators. */
  pictureControls() {
    return pictureControls({
      id: 'room',
      save: (image) => this.client.setRoomPicture(this.roomID, image),
      remove: () => this.client.removeRoomPicture(this.roomID),
      hasPicture: () => Boolean(this.store.rooms.get(this.roomID)?.avatarURL),
    });
  }

  // MARK: notification level

  async changeLevel(level) {
    this.levelStatus.textContent = '';
    try {
      await this.client.setNotificationLevel(this.roomID, level);
    } catch (error) {
      this.levelStatus.textContent = errorText(error.code);
      this.refresh(); // the level in force stays chosen
    }
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
    for (const input of this.levelInputs) input.checked = input.value === room.notifications;
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
      this.members?.load();
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

/** A channel's or group's owner and moderators change its picture; the lobby keeps its look (§7.7). */
function canChangePicture(room) {
  return room.kind !== 'direct' && room.id !== 'lobby' && (room.role === 'owner' || room.role === 'moderator');
}
