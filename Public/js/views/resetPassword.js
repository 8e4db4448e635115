// The page of a password reset link (#/reset/CODE, PROTOCOL.md §10.2): a new password, twice; the server answers
// with a session, as signing in does, and the app opens with it. An unknown, used or expired link and a password
// the server refuses say so under the form.
import { el } from '../dom.js';
import { describeError, t } from '../strings.js';
import { navigate } from '../router.js';
import { field } from './auth.js';

export class ResetPasswordView {
  /** `onSignedIn(session)` receives the session the new password signed in with. */
  constructor(api, code, onSignedIn) {
    this.api = api;
    this.code = code;
    this.onSignedIn = onSignedIn;
    const passwordInput = (id) => el('input', {
      type: 'password', id, className: 'text-input', autocomplete: 'new-password', required: true, maxlength: '128',
    });
    this.password = passwordInput('reset-password');
    this.password.setAttribute('aria-describedby', 'reset-password-hint');
    this.confirmation = passwordInput('reset-confirm');
    this.error = el('p', { className: 'form-error', id: 'reset-error', role: 'alert' });
    this.submitButton = el('button', { type: 'submit', className: 'button primary wide', id: 'reset-submit', text: t('resetSubmit') });
    this.element = el('main', { className: 'auth-screen' },
      el('form', { className: 'auth-card', id: 'reset-form', noValidate: true, on: { submit: (event) => this.submit(event) } },
        el('div', { className: 'auth-logo', 'aria-hidden': 'true', text: 'SC' }),
        el('h1', { className: 'auth-title', text: t('resetTitle') }),
        el('p', { className: 'auth-note', text: t('resetIntro') }),
        field('reset-password', t('newPassword'), this.password, el('small', { id: 'reset-password-hint', text: t('passwordHint') })),
        field('reset-confirm', t('confirmNewPassword'), this.confirmation),
        this.error,
        this.submitButton,
        el('button', { type: 'button', className: 'link-button', id: 'reset-back', text: t('backToSignIn'), on: { click: () => navigate('chats') } })));
  }

  focus() {
    this.password.focus();
  }

  async submit(event) {
    event.preventDefault();
    this.error.textContent = '';
    if (this.password.value !== this.confirmation.value) {
      this.error.textContent = t('passwordsDiffer');
      this.confirmation.focus();
      return;
    }
    this.submitButton.disabled = true;
    try {
      this.onSignedIn(await this.api.resetPassword(this.code, this.password.value));
    } catch (error) {
      this.error.textContent = describeError(error);
      this.submitButton.disabled = false;
    }
  }
}
