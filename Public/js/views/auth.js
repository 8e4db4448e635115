// Sign in and register, with errors a person can act on (taken username, wrong password, server unreachable), and
// the language chosen before signing in. The server's registration mode (/api/v1/config, PROTOCOL.md §10.1) decides
// what registering offers: open, by invitation (a code field, filled in from an invitation link), or closed (no
// sign-up, and a line that says so). A notice says why this browser was signed out, when the server said.
import { el, replaceChildren } from '../dom.js';
import { currentLanguage, describeError, errorText, LANGUAGES, setLanguage, t } from '../strings.js';

export class AuthView {
  /**
   * `onSignedIn(session)` receives the session (§6.3) once the server accepts us. `invite`: an invitation's code
   * (registering then); `notice`: a line to show above the form.
   */
  constructor(api, onSignedIn, { invite = null, notice = null } = {}) {
    this.api = api;
    this.onSignedIn = onSignedIn;
    this.invite = invite;
    this.notice = notice;
    this.registration = 'open'; // until the server's config says otherwise
    this.mode = invite ? 'register' : 'signIn';
    this.element = el('main', { className: 'auth-screen' });
    this.render();
    this.loadRegistrationMode();
  }

  async loadRegistrationMode() {
    try {
      const { registration } = await this.api.config();
      if (!registration || registration === this.registration) return;
      this.registration = registration;
      if (registration === 'closed') this.mode = 'signIn';
      this.renderKeeping(() => this.username.focus());
    } catch {
      // Unknown: registering is offered, and the server's answer says if it is not possible.
    }
  }

  render() {
    const registering = this.mode === 'register';
    const inviting = registering && (this.registration === 'invite' || Boolean(this.invite));
    this.username = el('input', {
      type: 'text', id: 'auth-username', className: 'text-input', autocomplete: 'username', required: true,
      autocapitalize: 'none', spellcheck: 'false', 'aria-describedby': registering ? 'username-hint' : undefined,
    });
    this.password = el('input', {
      type: 'password', id: 'auth-password', className: 'text-input', required: true,
      autocomplete: registering ? 'new-password' : 'current-password', 'aria-describedby': registering ? 'password-hint' : undefined,
    });
    this.displayName = el('input', { type: 'text', id: 'auth-display-name', className: 'text-input', autocomplete: 'nickname', maxlength: '64' });
    this.inviteInput = el('input', {
      type: 'text', id: 'auth-invite', className: 'text-input', autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false',
      'aria-describedby': 'invite-note',
    });
    this.inviteInput.value = this.invite ?? '';
    this.error = el('p', { className: 'form-error', id: 'auth-error', role: 'alert' });
    this.submitButton = el('button', { type: 'submit', className: 'button primary wide', id: 'auth-submit', text: registering ? t('register') : t('signIn') });
    const closed = this.registration === 'closed';

    replaceChildren(this.element,
      el('form', { className: 'auth-card', id: 'auth-form', noValidate: true, on: { submit: (event) => this.submit(event) } },
        el('div', { className: 'auth-logo', 'aria-hidden': 'true', text: 'SC' }),
        el('h1', { className: 'auth-title', text: registering ? t('registerTitle') : t('signInTitle') }),
        this.notice && el('p', { className: 'auth-notice', id: 'auth-notice', role: 'alert', text: this.notice }),
        inviting && el('p', { className: 'auth-note', id: 'invite-note', text: this.invite ? t('invitationFilled') : t('invitationNeeded') }),
        field('auth-username', t('username'), this.username, registering ? el('small', { id: 'username-hint', text: t('usernameHint') }) : null),
        field('auth-password', t('password'), this.password, registering ? el('small', { id: 'password-hint', text: t('passwordHint') }) : null),
        registering && field('auth-display-name', t('displayName'), this.displayName),
        inviting && field('auth-invite', t('invitationCode'), this.inviteInput),
        this.error,
        this.submitButton,
        closed
          ? el('p', { className: 'auth-note', id: 'registration-closed', text: t('registrationClosedNote') })
          : el('button', {
            type: 'button',
            className: 'link-button',
            id: 'auth-switch',
            text: registering ? t('haveAccount') : t('needAccount'),
            on: { click: () => this.switchMode() },
          }),
        el('label', { className: 'auth-language', for: 'auth-language' },
          el('span', { text: t('language') }),
          el('select', {
            id: 'auth-language',
            className: 'text-input',
            on: { change: (event) => this.changeLanguage(event.target.value) },
          }, LANGUAGES.map(({ code, name }) => el('option', { value: code, text: name, lang: code, selected: code === currentLanguage() }))))));
  }

  /** Builds the form again, keeping what was typed and where the focus was (`refocus` puts it back). */
  renderKeeping(refocus) {
    const hadFocus = this.element.contains(document.activeElement);
    const typed = { username: this.username.value, password: this.password.value, displayName: this.displayName.value };
    this.keepInvitationCode();
    this.render();
    this.username.value = typed.username;
    this.password.value = typed.password;
    this.displayName.value = typed.displayName;
    if (hadFocus) refocus();
  }

  /** Shows the screen again in another language, keeping what was typed. */
  changeLanguage(code) {
    setLanguage(code);
    document.title = t('appName');
    this.renderKeeping(() => this.element.querySelector('#auth-language').focus());
  }

  switchMode() {
    const username = this.username.value;
    this.keepInvitationCode();
    this.mode = this.mode === 'register' ? 'signIn' : 'register';
    this.render();
    this.username.value = username;
    this.username.focus();
  }

  /** An invitation code typed in the form outlives the form being built again. */
  keepInvitationCode() {
    if (this.inviteInput.isConnected) this.invite = this.inviteInput.value.trim() || null;
  }

  focus() {
    this.username.focus();
  }

  async submit(event) {
    event.preventDefault();
    const username = this.username.value.trim();
    const password = this.password.value;
    if (!username || !password) {
      this.error.textContent = !username ? errorText('invalid_username') : errorText('invalid_password');
      return;
    }
    this.error.textContent = '';
    this.submitButton.disabled = true;
    try {
      this.keepInvitationCode();
      const invite = this.mode === 'register' ? this.invite : null;
      const session = this.mode === 'register'
        ? await this.api.register(username, password, this.displayName.value.trim(), invite)
        : await this.api.login(username, password);
      this.onSignedIn(session);
    } catch (error) {
      this.error.textContent = describeError(error);
      this.submitButton.disabled = false;
    }
  }
}

/** A labelled field of a sign-in card, with an optional hint under it. */
export function field(id, label, input, hint = null) {
  return el('div', { className: 'field' }, el('label', { for: id, text: label }), input, hint);
}
