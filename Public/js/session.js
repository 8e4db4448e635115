// The signed-in session survives reloads in localStorage: {token, expiresAt, user}.

const STORAGE_KEY = 'swiftchat.session';

export function loadSession() {
  try {
    const session = JSON.parse(localStorage.getItem(STORAGE_KEY));
    if (!session?.token || !session.user?.id) return null;
    if (session.expiresAt && session.expiresAt < Date.now()) return null;
    return session;
  } catch {
    return null;
  }
}

export function saveSession(session) {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
}

export function clearSession() {
  localStorage.removeItem(STORAGE_KEY);
}

/** Keys for data kept per account (outbox, drafts), so two accounts in one browser never mix. */
export function userStorageKey(userID, name) {
  return `swiftchat.${name}.${userID}`;
}
