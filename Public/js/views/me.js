// The Me tab: my profile (display name, avatar colour, picture: avatarPicker.js), My data, Bots and, for
// administrators, Administration (pages of their own: mePages.js), changing my password (this device stays signed
// in with the new session), language, theme, Mentions of me, notifications (push on this device, desktop
// notifications while the app is open, sound), connection status and server version, sign out (asking first when
// unsent messages or drafts would be lost).
import { el, replaceChildren } from '../dom.js';
import { currentLanguage, describeError, errorText, LANGUAGES, setLanguage, t } from '../strings.js';
import { avatarElement, profileAvatar } from '../avatar.js';
import { applyTheme, currentTheme, THEMES } from '../theme.js';
import { connectionLight } from './connectionLight.js';
import { navRow } from './navRow.js';
import { pictureControls } from './avatarPicker.js';

const CONNECTION_LABELS = { online: 'connected', connecting: 'connecting', offline: 'disconnected' };
const AVATAR_COLORS = ['#4DB6AC', '#5C6BC0', '#EF6C00', '#8D6E63', '#7E57C2', '#29B6F6', '#EC407A', '#9CCC65', '#546E7A', '#D81B60'];

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
      'aria-label': t('displayNameLabel'),
    });
    this.profileStatus = el('p', { className: 'form-status', role: 'status' });
    this.connectionText = el('span', { id: 'connection-text' });
    this.versionText = el('span', { id: 'server-version' });
    this.colorChoices = el('div', { className: 'color-choices', role: 'radiogroup', 'aria-label': t('avatarColor') });
    this.notifyStatus = el('p', { className: 'form-status', id: 'notify-status', role: 'status' });
    const select = (id, label, options, value, onChange) => el('label', { className: 'settings-row', for: id },
      el('span', { text: label }),
      el('select', { id, className: 'text-input', on: { change: (event) => onChange(event.target.value) } },
        options.map(({ code, name }) => el('option', { value: code, text: name, selected: code === value }))));
    const toggle = (id, label, checked, onChange) => el('label', { className: 'settings-row toggle-row', for: id },
      el('span', { text: label }),
      el('input', { type: 'checkbox', id, checked, on: { change: (event) => onChange(event.target) } }));
    const notifier = this.client.notifier;
    this.pushStatus = el('p', { className: 'form-status', id: 'push-status', role: 'status' });
    this.pushToggle = el('input', {
      type: 'checkbox', id: 'notify-push', 'aria-labelledby': 'push-label', 'aria-describedby': 'push-hint',
      on: { change: () => this.changePush() },
    });
    const passwordInput = (id, label, autocomplete) => el('input', {
      type: 'password', id, className: 'text-input', autocomplete, required: true, maxlength: '128',
      'aria-label': label, placeholder: label,
    });
    this.currentPasswordInput = passwordInput('current-password', t('currentPassword'), 'current-password');
    this.newPasswordInput = passwordInput('new-password', t('newPassword'), 'new-password');
    this.confirmPasswordInput = passwordInput('confirm-password', t('confirmNewPassword'), 'new-password');
    this.passwordStatus = el('p', { className: 'form-status', id: 'password-status', role: 'status' });
    this.passwordButton = el('button', { type: 'submit', className: 'button primary', id: 'change-password', text: t('changePassword') });
    this.adminRow = navRow({ id: 'me-admin-link', path: 'me/admin', label: t('administration') });

    this.element = el('div', { className: 'me-view' },
      this.header,
      el('div', { className: 'settings-group nav-group' },
        navRow({ id: 'me-mentions-link', path: 'me/mentions', label: t('mentionsTitle') }),
        navRow({ id: 'me-data-link', path: 'me/data', label: t('myData') }),
        navRow({ id: 'me-bots-link', path: 'me/bots', label: t('bots') }),
        this.adminRow),
      el('form', { className: 'settings-group', id: 'profile-form', on: { submit: (event) => this.saveProfile(event) } },
        el('h2', { className: 'section-title', text: t('profile') }),
        el('div', { className: 'inline-form-row' },
          this.displayNameInput,
          el('button', { type: 'submit', className: 'button primary', text: t('save') })),
        el('h3', { className: 'section-title', text: t('avatarColor') }),
        this.colorChoices,
        this.profileStatus,
        el('h3', { className: 'section-title', text: t('picture') }),
        pictureControls({
          id: 'me',
          save: (image) => this.client.setMyPicture(image),
          remove: () => this.client.removeMyPicture(),
          hasPicture: () => Boolean(this.store.me.avatarURL),
        })),
      el('form', { className: 'settings-group password-form', id: 'password-form', on: { submit: (event) => this.changePassword(event) } },
        el('h2', { className: 'section-title', text: t('changePassword') }),
        this.currentPasswordInput,
        this.newPasswordInput,
        this.confirmPasswordInput,
        this.passwordButton,
        this.passwordStatus),
      el('div', { className: 'settings-group' },
        select('language', t('language'), LANGUAGES, currentLanguage(), (code) => this.changeLanguage(code)),
        select('theme', t('theme'), THEMES.map((code) => ({ code, name: t(`theme_${code}`) })), currentTheme(), (code) => applyTheme(code))),
      el('section', { className: 'settings-group', id: 'notification-settings', 'aria-labelledby': 'notifications-title' },
        el('h2', { className: 'section-title', id: 'notifications-title', text: t('notificationsSection') }),
        el('label', { className: 'settings-row toggle-row', for: 'notify-push' },
          el('span', { className: 'settings-label' },
            el('span', { id: 'push-label', text: t('pushNotifications') }),
            el('small', { className: 'settings-hint', id: 'push-hint', text: t('pushHint') })),
          this.pushToggle),
        this.pushStatus,
        toggle('notify-desktop', t('desktopNotifications'), notifier.settings.desktop && notifier.permission() === 'granted',
          (input) => this.changeDesktop(input)),
        toggle('notify-sound', t('notificationSound'), notifier.settings.sound, (input) => notifier.setSound(input.checked)),
        this.notifyStatus),
      el('div', { className: 'settings-group' },
        el('div', { className: 'settings-row' },
          el('span', { text: t('connection') }),
          el('span', { className: 'settings-value' }, connectionLight(this.store), this.connectionText)),
        el('div', { className: 'settings-row' },
          el('span', { text: t('serverVersion') }),
          this.versionText)),
      el('button', { type: 'button', className: 'button danger wide', id: 'sign-out', text: t('signOut'), on: { click: () => this.signOut() } }));

    this.unsubscribers = [
      this.store.on('me', () => this.renderProfile()),
      this.store.on('connection', () => this.renderConnection()),
    ];
    this.renderProfile();
    this.renderConnection();
    this.renderPush();
    this.client.refreshMe().catch(() => {}); // offline: the profile kept from signing in stands
  }

  renderProfile() {
    const me = this.store.me;
    replaceChildren(this.header,
      avatarElement(profileAvatar(me), { size: 'xlarge' }),
      el('div', {},
        el('p', { className: 'me-name', id: 'me-name', text: me.displayName }),
        el('p', { className: 'me-username', text: `@${me.username}` })));
    this.adminRow.hidden = me.admin !== true;
    if (document.activeElement !== this.displayNameInput) this.displayNameInput.value = me.displayName;
    const current = (me.avatarColor || '').toUpperCase();
    replaceChildren(this.colorChoices, AVATAR_COLORS.map((color) => el('button', {
      type: 'button',
      className: 'color-choice',
      role: 'radio',
      'aria-checked': String(color === current),
      'aria-label': color,
      dataset: { color },
      style: { backgroundColor: color },
      on: { click: () => this.saveColor(color) },
    })));
  }

  renderConnection() {
    this.connectionText.textContent = t(CONNECTION_LABELS[this.store.connection]);
    this.versionText.textContent = this.store.serverVersion ?? t('unknownVersion');
  }

  changeLanguage(code) {
    setLanguage(code);
    this.store.emit('language'); // the shell rebuilds every screen in the new language
  }

  async changeDesktop(input) {
    const wanted = input.checked;
    const enabled = await this.client.notifier.setDesktop(wanted);
    input.checked = enabled;
    this.notifyStatus.textContent = wanted && !enabled ? t('notificationsBlocked') : '';
  }

  /** The push switch as this browser's subscription is; unsupported, it is off and says why. */
  async renderPush() {
    if (!this.client.push.supported()) {
      this.pushToggle.disabled = true;
      this.pushStatus.textContent = t('pushUnsupported');
      return;
    }
    this.pushToggle.checked = Boolean(await this.client.push.subscription().catch(() => null));
  }

  async changePush() {
    const wanted = this.pushToggle.checked;
    this.pushToggle.disabled = true;
    this.pushStatus.textContent = wanted ? t('pushTurningOn') : '';
    try {
      if (wanted) await this.client.push.enable();
      else await this.client.push.disable();
      this.pushStatus.textContent = '';
    } catch (error) {
      this.pushToggle.checked = !wanted;
      this.pushStatus.textContent = pushErrorText(error);
    } finally {
      this.pushToggle.disabled = false;
    }
  }

  async saveProfile(event) {
    event.preventDefault();
    await this.save({ displayName: this.displayNameInput.value.trim() });
  }

  async saveColor(avatarColor) {
    await this.save({ avatarColor });
  }

  async save(changes) {
    this.profileStatus.textContent = '';
    try {
      await this.client.updateProfile(changes);
      this.profileStatus.textContent = t('saved');
    } catch (error) {
      this.profileStatus.textContent = errorText(error.code);
    }
  }

  async changePassword(event) {
    event.preventDefault();
    const current = this.currentPasswordInput.value;
    const next = this.newPasswordInput.value;
    this.passwordStatus.textContent = '';
    if (next !== this.confirmPasswordInput.value) {
      this.passwordStatus.textContent = t('passwordsDiffer');
      this.confirmPasswordInput.focus();
      return;
    }
    this.passwordButton.disabled = true;
    try {
      await this.client.changePassword(current, next);
      for (const input of [this.currentPasswordInput, this.newPasswordInput, this.confirmPasswordInput]) input.value = '';
      this.passwordStatus.textContent = t('passwordChanged');
    } catch (error) {
      this.passwordStatus.textContent = error.code === 'rate_limited' && error.retryAfter
        ? t('error_rate_limited_seconds', { seconds: error.retryAfter })
        : errorText(error.code);
    } finally {
      this.passwordButton.disabled = false;
    }
  }

  signOut() {
    if (this.client.hasUnsentWork() && !window.confirm(t('confirmSignOut'))) return;
    this.client.signOut();
  }

  destroy() {
    this.unsubscribers.forEach((unsubscribe) => unsubscribe());
  }
}

// What each PushError's problem says (webPush.js).
const PUSH_PROBLEMS = { unsupported: 'pushUnsupported', denied: 'notificationsBlocked', refused: 'pushRefused', timeout: 'pushNoAnswer' };

/** Why push could not be turned on or off, in words (a PushError's problem, or the server's error). */
function pushErrorText(error) {
  return PUSH_PROBLEMS[error.problem] ? t(PUSH_PROBLEMS[error.problem], { reason: error.reason }) : describeError(error);
}
