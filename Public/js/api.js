// The REST half of the protocol (docs/PROTOCOL.md §6, §7, §9.3, §9.7). Every call resolves with the parsed body or
// rejects with an ApiError whose `code` is the server's error code, or `unreachable` when no answer came.

const BASE = '/api/v1';

export class ApiError extends Error {
  constructor(status, code, message, retryAfter = null) {
    super(message || code);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

export class Api {
  /** `getToken` returns the current bearer token (or null); `onUnauthorized` runs when the server rejects it. */
  constructor({ getToken, onUnauthorized }) {
    this.getToken = getToken;
    this.onUnauthorized = onUnauthorized;
    this.tokenChanges = 0; // password changes under way: they revoke the token, so its 401s do not mean signed out
  }

  async request(method, path, { body, rawBody, contentType, auth = true } = {}) {
    const headers = {};
    const token = this.getToken();
    if (auth && token) headers.Authorization = `Bearer ${token}`;
    let payload;
    if (rawBody !== undefined) {
      payload = rawBody;
      headers['Content-Type'] = contentType || 'application/octet-stream';
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['Content-Type'] = 'application/json';
    }
    let response;
    try {
      response = await fetch(BASE + path, { method, headers, body: payload, cache: 'no-store' });
    } catch {
      throw new ApiError(0, 'unreachable', 'The server cannot be reached.');
    }
    if (response.status === 204) return null;
    const data = await response.json().catch(() => null);
    if (response.ok) return data;
    // A proxy or a server that is still starting may answer without our error body.
    if (!data || typeof data.code !== 'string') {
      throw new ApiError(response.status, response.status >= 502 ? 'unreachable' : 'internal', data?.reason);
    }
    const error = new ApiError(response.status, data.code, data.message, Number(response.headers.get('Retry-After')) || null);
    // A token replaced meanwhile (a password change gives a new one) was not signed out: only the current one can be.
    if (response.status === 401 && data.code === 'unauthorized' && auth && this.tokenChanges === 0 && this.getToken() === token) {
      this.onUnauthorized?.();
    }
    throw error;
  }

  // §6 accounts
  register(username, password, displayName) {
    const body = { username, password };
    if (displayName) body.displayName = displayName;
    return this.request('POST', '/register', { body, auth: false });
  }
  login(username, password) {
    return this.request('POST', '/login', { body: { username, password }, auth: false });
  }
  logout() { return this.request('POST', '/logout'); }
  me() { return this.request('GET', '/me'); }
  updateMe(changes) { return this.request('PATCH', '/me', { body: changes }); }
  /** Resolves with a new session ({token, expiresAt, user}); the server revokes every other token of the account. */
  async changePassword(password, newPassword) {
    this.tokenChanges += 1;
    try {
      return await this.request('POST', '/me/password', { body: { password, newPassword } });
    } finally {
      this.tokenChanges -= 1;
    }
  }
  user(id) { return this.request('GET', `/users/${encodeURIComponent(id)}`); }
  users(query = '') {
    return this.request('GET', query ? `/users?query=${encodeURIComponent(query)}` : '/users');
  }

  // §7 rooms
  rooms() { return this.request('GET', '/rooms'); }
  publicRooms() { return this.request('GET', '/rooms/public'); }
  createRoom(kind, name, members = []) { return this.request('POST', '/rooms', { body: { kind, name, members } }); }
  joinRoom(id) { return this.request('POST', `/rooms/${encodeURIComponent(id)}/join`); }
  leaveRoom(id) { return this.request('POST', `/rooms/${encodeURIComponent(id)}/leave`); }
  renameRoom(id, name) { return this.request('PATCH', `/rooms/${encodeURIComponent(id)}`, { body: { name } }); }
  invite(id, username) { return this.request('POST', `/rooms/${encodeURIComponent(id)}/invite`, { body: { username } }); }
  members(id, limit = 200) {
    return this.request('GET', `/rooms/${encodeURIComponent(id)}/members?limit=${limit}`);
  }
  openDirect(username) { return this.request('POST', '/dms', { body: { username } }); }
  history(roomID, { before, limit = 50 } = {}) {
    const query = new URLSearchParams({ limit: String(limit) });
    if (before) query.set('before', String(before));
    return this.request('GET', `/rooms/${encodeURIComponent(roomID)}/messages?${query}`);
  }

  // §9.3 attachments, §9.7 search and config
  upload(file) {
    const name = encodeURIComponent(file.name || 'file');
    return this.request('POST', `/attachments?name=${name}`, { rawBody: file, contentType: file.type || 'application/octet-stream' });
  }
  search(q, { room, limit = 20 } = {}) {
    const query = new URLSearchParams({ q, limit: String(limit) });
    if (room) query.set('room', room);
    return this.request('GET', `/search?${query}`);
  }
  config() { return this.request('GET', '/config', { auth: false }); }

  /** The URL an `<img>` can load an attachment from (the token rides in the query: `<img>` sends no headers). */
  attachmentURL(id) {
    return `${BASE}/attachments/${encodeURIComponent(id)}?token=${encodeURIComponent(this.getToken() || '')}`;
  }
}
