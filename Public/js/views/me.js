// The Me tab: my profile (display name), language, connection status and server version, sign out.
import { el, replaceChildren } from '../dom.js';
import { currentLanguage, errorText, LANGUAGES, setLanguage, t } from '../strings.js';
import { avatarElement, profileAvatar } from '../avatar.js';
import { connectionLight } from './connectionLight.js';

const CONNECTION_LABELS = { online: 'connected', connecting: 'connecting', offline: 'disconnected' };

export class MeView {
  constructor(client) {
    this.client = client;
    this.store = client.store;
    this.header = el('div', { className: 'me-header' });
    this.displayNameInput = el('input', {
      type: 'text',
      id: 'display-name',
      className: 'text-input',
      maxlength: '64',
      'aria-label': t('displayName'),
    });
    this.profileStatus = el('p', { className: 'form-status', role: 'status' });
    this.connectionText = el('span', { id: 'connection-text' });
    this.versionText = el('span', { id: 'server-version' });
    const languageSelect = el('select', {
      id: 'language',
      className: 'text-input',
      'aria-label': t('language'),
      on: { change: (event) => this.changeLanguage(event.target.value) },
    }, LANGUAGES.map(({ code, name }) => el('option', { value: code, text: name, selected: code === currentLanguage() })));

    this.element = el('div', { className: 'me-view' },
      this.header,
      el('form', { className: 'settings-group', id: 'profile-form', on: { submit: (event) => this.saveProfile(event) } },
        el('h2', { className: 'section-title', text: t('profile') }),
        el('div', { className: 'inline-form-row' },
          this.displayNameInput,
          el('button', { type: 'submit', className: 'button primary', text: t('save') })),
        this.profileStatus),
      el('div', { className: 'settings-group' },
        el('label', { className: 'settings-row', for: 'language' }, el('span', { text: t('language') }), languageSelect),
        el('div', { className: 'settings-row' },
          el('span', { text: t('connection') }),
          el('span', { className: 'settings-value' }, connectionLight(this.store), this.connectionText)),
        el('div', { className: 'settings-row' },
          el('span', { text: t('serverVersion') }),
          this.versionText)),
      el('button', { type: 'button', className: 'button danger wide', id: 'sign-out', text: t('signOut'), on: { click: () => this.client.signOut() } }));

    this.unsubscribers = [
      this.store.on('me', () => this.renderProfile()),
      this.store.on('connection', () => this.renderConnection()),
    ];
    this.renderProfile();
    this.renderConnection();
  }

  renderProfile() {
    const me = this.store.me;
    replaceChildren(this.header,
      avatarElement(profileAvatar(me), { size: 'xlarge' }),
      el('div', {},
        el('p', { className: 'me-name', id: 'me-name', text: me.displayName }),
        el('p', { className: 'me-username', text: `@${me.username}` })));
    if (document.activeElement !== this.displayNameInput) this.displayNameInput.value = me.displayName;
  }

  renderConnection() {
    this.connectionText.textContent = t(CONNECTION_LABELS[this.store.connection]);
    this.versionText.textContent = this.store.serverVersion ?? t('unknownVersion');
  }

  changeLanguage(code) {
    setLanguage(code);
    this.store.emit('language'); // the shell rebuilds every screen in the new language
  }

  async saveProfile(event) {
    event.preventDefault();
    const displayName = this.displayNameInput.value.trim();
    this.profileStatus.textContent = '';
    try {
      await this.client.updateDisplayName(displayName);
      this.profileStatus.textContent = t('saved');
    } catch (error) {
      this.profileStatus.textContent = errorText(error.code);
    }
  }

  destroy() {
    this.unsubscribers.forEach((unsubscribe) => unsubscribe());
  }
}
