// Entry point: show the sign-in screen, or the app for the session kept from last time.
import { Api } from './api.js';
import { ChatClient } from './client.js';
import { clearSession, loadSession, saveSession } from './session.js';
import { currentLanguage, setLanguage, t } from './strings.js';
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
    showApp();
  });
  root.replaceChildren(view.element);
  view.focus();
}

function showApp() {
  client = new ChatClient({ session, api, onSignedOut: signedOut });
  shell = new Shell(root, client);
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
if (session) showApp();
else showSignIn();
