// Entry point: show the sign-in screen, or the app for the session kept from last time.
import { Api } from './api.js';
import { ChatClient } from './client.js';
import { clearSession, loadSession, saveSession } from './session.js';
import { currentLanguage, setLanguage, t } from './strings.js';
import { applyTheme } from './theme.js';
import { AuthView } from './views/auth.js';
import { Shell } from './views/shell.js';

const root = document.getElementById('app');
let session = loadSession();
let client = null;
let shell = null;

const api = new Api({
  getToken: () => session?.token ?? null,
  onUnauthorized: () => signedOut(),
});

function showSignIn() {
  document.title = t('appName');
  const view = new AuthView(api, (newSession) => {
    saveSession(newSession);
    session = newSession;
    history.replaceState(null, '', '#/chats');
    showApp({ focusList: true });
  });
  root.replaceChildren(view.element);
  view.focus();
}

function showApp({ focusList = false } = {}) {
  client = new ChatClient({ session, api, onSignedOut: signedOut, onSessionChanged: (newSession) => { session = newSession; } });
  shell = new Shell(root, client, { focusList });
  client.start();
}

/** The token is gone (signed out here, or revoked/expired on the server): back to the sign-in screen. */
function signedOut() {
  if (!session) return;
  client?.stop();
  shell?.destroy();
  client = null;
  shell = null;
  session = null;
  clearSession();
  showSignIn();
}

setLanguage(currentLanguage());
applyTheme();
if (session) showApp();
else showSignIn();

// The app shell is cached by a service worker (sw.js), so a reload while the server is down still opens the app,
// with its cached chats and outbox; queued messages go out by themselves once the server is back.
navigator.serviceWorker?.register('/sw.js').catch(() => {});
