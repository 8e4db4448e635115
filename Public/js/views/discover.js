// The Discover tab: public channels with their member counts, to join or open, and a form to create a channel
// (public) or a group (private: only the people invited), with the first members named by username.
import { el, replaceChildren } from '../dom.js';
import { errorText, t } from '../strings.js';
import { avatarElement, roomAvatar } from '../avatar.js';
import { chatPath, navigate } from '../router.js';

export class DiscoverView {
  constructor(client) {
    this.client = client;
    this.channels = [];

    this.nameInput = el('input', {
      type: 'text',
      id: 'channel-name',
      className: 'text-input',
      placeholder: t('channelName'),
      'aria-label': t('channelName'),
      maxlength: '64',
      required: true,
    });
    this.membersInput = el('input', {
      type: 'text',
      id: 'room-members',
      className: 'text-input',
      placeholder: t('membersPlaceholder'),
      'aria-label': t('membersPlaceholder'),
      autocapitalize: 'none',
      spellcheck: 'false',
    });
    const kindOption = (kind, checked) => el('label', { className: 'kind-option' },
      el('input', { type: 'radio', name: 'room-kind', value: kind, id: `kind-${kind}`, checked }),
      el('span', { text: t(`kindChoice_${kind}`) }));
    this.error = el('p', { className: 'form-error', role: 'alert' });
    this.list = el('ul', { className: 'channel-list', id: 'channel-list', 'aria-label': t('publicChannels') });
    this.element = el('div', { className: 'discover-view' },
      el('form', { className: 'inline-form', id: 'create-channel', on: { submit: (event) => this.create(event) } },
        el('h2', { className: 'section-title', text: t('createRoom') }),
        el('fieldset', { className: 'kind-choice' },
          el('legend', { className: 'visually-hidden', text: t('roomKind') }),
          kindOption('channel', true), kindOption('group', false)),
        el('div', { className: 'inline-form-row' }, this.nameInput),
        el('div', { className: 'inline-form-row' },
          this.membersInput,
          el('button', { type: 'submit', className: 'button primary', text: t('create') }))),
      this.error,
      el('h2', { className: 'section-title', text: t('publicChannels') }),
      this.list);
    this.load();
  }

  async load() {
    try {
      this.channels = (await this.client.publicChannels()).sort((a, b) => a.name.localeCompare(b.name));
      this.error.textContent = '';
    } catch (error) {
      this.error.textContent = errorText(error.code);
    }
    this.render();
  }

  render() {
    if (this.channels.length === 0) {
      replaceChildren(this.list, el('li', { className: 'empty-note', text: t('noChannels') }));
      return;
    }
    replaceChildren(this.list, this.channels.map((channel) => el('li', { className: 'channel-item', dataset: { roomId: channel.id } },
      avatarElement(roomAvatar({ ...channel, kind: 'channel' })),
      el('span', { className: 'contact-main' },
        el('span', { className: 'contact-name', text: channel.name }),
        el('span', { className: 'contact-detail', text: channel.members === 1 ? t('member') : t('members', { count: channel.members }) })),
      el('button', {
        type: 'button',
        className: `button ${channel.joined ? '' : 'primary'}`,
        text: channel.joined ? t('open') : t('join'),
        'aria-label': `${channel.joined ? t('open') : t('join')} ${channel.name}`,
        on: { click: (event) => this.openOrJoin(channel, event.currentTarget) },
      }))));
  }

  async openOrJoin(channel, button) {
    if (channel.joined && this.client.store.rooms.has(channel.id)) {
      navigate(chatPath(channel.id));
      return;
    }
    button.disabled = true;
    try {
      navigate(chatPath(await this.client.joinChannel(channel.id)));
    } catch (error) {
      this.error.textContent = errorText(error.code);
      button.disabled = false;
    }
  }

  async create(event) {
    event.preventDefault();
    const name = this.nameInput.value.trim();
    if (!name) return;
    const kind = this.element.querySelector('input[name="room-kind"]:checked')?.value ?? 'channel';
    const members = this.membersInput.value.split(/[\s,，、]+/u).map((username) => username.replace(/^@/, '')).filter(Boolean);
    try {
      const roomID = await this.client.createRoom(kind, name, members);
      this.nameInput.value = '';
      this.membersInput.value = '';
      navigate(chatPath(roomID));
    } catch (error) {
      this.error.textContent = errorText(error.code);
    }
  }

  destroy() {}
}
