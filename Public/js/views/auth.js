// Sign in and register, with errors a person can act on (taken username, wrong password, server unreachable), and
// the language chosen before signing in.
import { el, replaceChildren } from '../dom.js';
import { currentLanguage, errorText, LANGUAGES, setLanguage, t } from '../strings.js';

export class AuthView {
  /** `onSignedIn(session)` receives the session (§6.3) once the server accepts us. */
  constructor(api, onSignedIn) {
    this.api = api;
    this.onSignedIn = onSignedIn;
    this.mode = 'signIn';
    this.element = el('main', { className: 'auth-screen' });
    this.render();
  }

  render() {
    const registering = this.mode === 'register';
    this.username = el('input', {
      type: 'text', id: 'auth-username', className: 'text-input', autocomplete: 'username', required: true,
      autocapitalize: 'none', spellcheck: 'false', 'aria-describedby': registering ? 'username-hint' : undefined,
    });
    this.password = el('input', {
      type: 'password', id: 'auth-password', className: 'text-input', required: true,
      autocomplete: registering ? 'new-password' : 'current-password', 'aria-describedby': registering ? 'password-hint' : undefined,
    });
    this.displayName = el('input', { type: 'text', id: 'auth-display-name', className: 'text-input', autocomplete: 'nickname', maxlength: '64' });
    this.error = el('p', { className: 'form-error', id: 'auth-error', role: 'alert' });
    this.submitButton = el('button', { type: 'submit', className: 'button primary wide', id: 'auth-submit', text: registering ? t('register') : t('signIn') });

    replaceChildren(this.element,
      el('form', { className: 'auth-card', id: 'auth-form', noValidate: true, on: { submit: (event) => this.submit(event) } },
        el('div', { className: 'auth-logo', 'aria-hidden': 'true', text: 'SC' }),
        el('h1', { className: 'auth-title', text: registering ? t('registerTitle') : t('signInTitle') }),
        field('auth-username', t('username'), this.username, registering ? el('small', { id: 'username-hint', text: t('usernameHint') }) : null),
        field('auth-password', t('password'), this.password, registering ? el('small', { id: 'password-hint', text: t('passwordHint') }) : null),
        registering && field('auth-display-name', t('displayName'), this.displayName),
        this.error,
        this.submitButton,
        el('button', {
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

  /** Shows the screen again in another language, keeping what was typed. */
  changeLanguage(code) {
    const typed = { username: this.username.value, password: this.password.value, displayName: this.displayName.value };
    setLanguage(code);
    document.title = t('appName');
    this.render();
    this.username.value = typed.username;
    this.password.value = typed.password;
    this.displayName.value = typed.displayName;
    this.element.querySelector('#auth-language').focus();
  }

  switchMode() {
    const username = this.username.value;
    this.mode = this.mode === 'register' ? 'signIn' : 'register';
    this.render();
    this.username.value = username;
    this.username.focus();
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
      const session = this.mode === 'register'
        ? await this.api.register(username, password, this.displayName.value.trim())
        : await this.api.login(username, password);
      this.onSignedIn(session);
    } catch (error) {
      this.error.textContent = error.code === 'rate_limited' && error.retryAfter
        ? t('error_rate_limited_seconds', { seconds: error.retryAfter })
        : errorText(error.code);
      this.submitButton.disabled = false;
    }
  }
}

function field(id, label, input, hint = null) {
  return el('div', { className: 'field' }, el('label', { for: id, text: label }), input, hint);
}
