// Entry point: show the sign-in screen, or the app for the session kept from last time; a password reset link
// (#/reset/CODE) shows its own page whether signed in or not, and an invitation link (#/invite/CODE) opens the
// registration form with the code filled in.
import { Api } from './api.js';
import { ChatClient } from './client.js';
import { linkRoute } from './router.js';
import { clearSession, loadSession, saveSession } from './session.js';
import { currentLanguage, setLanguage, t } from './strings.js';
import { applyTheme } from './theme.js';
import { AuthView } from './views/auth.js';
import { ResetPasswordView } from './views/resetPassword.js';
import { Shell } from './views/shell.js';

const root = document.getElementById('app');
let session = loadSession();
let client = null;
let shell = null;
let screen = null; // what shows: 'app', 'signIn', 'invite:CODE' (signing up with it) or 'reset:CODE'

const api = new Api({
  getToken: () => session?.token ?? null,
  onUnauthorized: () => signedOut(),
});

/** The screen the address and the session call for (as `screen` names them). */
function wantedScreen() {
  const link = linkRoute();
  if (link?.reset) return `reset:${link.reset}`;
  if (session) return 'app';
  return link?.invite ? `invite:${link.invite}` : 'signIn';
}

function showEntry() {
  const [name, code = null] = wantedScreen().split(':');
  if (name === 'reset') showReset(code);
  else if (name === 'app') showApp();
  else showSignIn({ invite: code });
}

/** `invite`: an invitation's code to register with; `reason`: why this browser was signed out (a strings key). */
function showSignIn({ invite = null, reason = null } = {}) {
  screen = invite ? `invite:${invite}` : 'signIn';
  document.title = t('appName');
  const view = new AuthView(api, signedIn, { invite, notice: reason && t(`signedOut_${reason}`) });
  root.replaceChildren(view.element);
  view.focus();
}

function showReset(code) {
  stopApp();
  screen = `reset:${code}`;
  document.title = t('appName');
  const view = new ResetPasswordView(api, code, signedIn);
  root.replaceChildren(view.element);
  view.focus();
}

function signedIn(newSession) {
  stopApp();
  saveSession(newSession);
  session = newSession;
  history.replaceState(null, '', '#/chats');
  showApp({ focusList: true });
}

function showApp({ focusList = false } = {}) {
  screen = 'app';
  client = new ChatClient({ session, api, onSignedOut: signedOut, onSessionChanged: (newSession) => { session = newSession; } });
  shell = new Shell(root, client, { focusList });
  client.start();
}

function stopApp() {
  client?.stop();
  shell?.destroy();
  client = null;
  shell = null;
}

/**
 * The token is gone (signed out here, or revoked/expired on the server): back to the sign-in screen, which says why
 * when the server said (`reason`: account_disabled, account_deleted).
 */
function signedOut(reason = null) {
  if (!session) return;
  stopApp();
  session = null;
  clearSession();
  showSignIn({ reason });
}

// A link opened in a page that is already open (pasted into the address bar, or Back from the reset page). Within
// the app the shell follows the address itself.
window.addEventListener('hashchange', () => {
  if (wantedScreen() !== screen) showEntry();
});

setLanguage(currentLanguage());
applyTheme();
showEntry();

// The app shell is cached by a service worker (sw.js), so a reload while the server is down still opens the app,
// with its cached chats and outbox; queued messages go out by themselves once the server is back.
navigator.serviceWorker?.register('/sw.js').catch(() => {});
// A notification was clicked (sw.js): its chat shows here.
navigator.serviceWorker?.addEventListener('message', (event) => {
  if (event.data?.type === 'open' && typeof event.data.hash === 'string' && event.data.hash.startsWith('#/')) location.hash = event.data.hash;
});
