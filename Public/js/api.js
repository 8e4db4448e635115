// The REST half of the protocol (docs/PROTOCOL.md §6 with §6.4, §7 with §7.3 to §7.6, §9.3, §9.7, §9.10, §9.11, §9.13, §9.14,
// §10). Every call resolves
// with the parsed body or rejects with an ApiError whose `code` is the server's error code, or `unreachable` when no
// answer came.

const BASE = '/api/v1';

export class ApiError extends Error {
  /** `reason`: what the server adds to some codes (`forbidden` with `muted`: §8.6). */
  constructor(status, code, message, retryAfter = null, reason = null) {
    super(message || code);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
    this.reason = reason ?? null;
  }
}

export class Api {
  /** `getToken` returns the current bearer token (or null); `onUnauthorized` runs when the server rejects it. */
  constructor({ getToken, onUnauthorized }) {
    this.getToken = getToken;
    this.onUnauthorized = onUnauthorized;
    this.tokenChanges = 0; // requests under way that revoke the token themselves (endingToken): its 401s are expected
  }

  async request(method, path, options = {}) {
    const response = await this.send(method, path, options);
    if (response.status === 204) return null;
    return response.json().catch(() => null);
  }

  /** A file with the bearer token, as a Blob and the name the server gives it (Content-Disposition). */
  async download(path) {
    const response = await this.send('GET', path);
    const name = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? null;
    return { blob: await response.blob(), name };
  }

  /** The response of a request the server accepted; otherwise rejects with an ApiError. */
  async send(method, path, { body, rawBody, contentType, auth = true } = {}) {
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
    if (response.ok) return response;
    const data = await response.json().catch(() => null);
    // A proxy or a server that is still starting may answer without our error body.
    if (!data || typeof data.code !== 'string') {
      throw new ApiError(response.status, response.status >= 502 ? 'unreachable' : 'internal', data?.reason);
    }
    const error = new ApiError(response.status, data.code, data.message, Number(response.headers.get('Retry-After')) || null, data.reason);
    // A token replaced meanwhile (a password change gives a new one) was not signed out: only the current one can be.
    if (response.status === 401 && data.code === 'unauthorized' && auth && this.tokenChanges === 0 && this.getToken() === token) {
      this.onUnauthorized?.();
    }
    throw error;
  }

  // §6 accounts
  register(username, password, displayName, invite) {
    const body = { username, password };
    if (displayName) body.displayName = displayName;
    if (invite) body.invite = invite;
    return this.request('POST', '/register', { body, auth: false });
  }
  login(username, password) {
    return this.request('POST', '/login', { body: { username, password }, auth: false });
  }
  logout() { return this.request('POST', '/logout'); }
  me() { return this.request('GET', '/me'); }
  updateMe(changes) { return this.request('PATCH', '/me', { body: changes }); }
  /** Resolves with a new session ({token, expiresAt, user}); the server revokes every other token of the account. */
  changePassword(password, newPassword) {
    return this.endingToken(() => this.request('POST', '/me/password', { body: { password, newPassword } }));
  }
  /** A one-time link's code sets a new password (§10.2): resolves with a new session, as login does. */
  resetPassword(code, newPassword) {
    return this.request('POST', '/password-reset', { body: { code, newPassword }, auth: false });
  }

  /** Runs a request that revokes the current token itself: its 401s do not mean this browser was signed out. */
  async endingToken(request) {
    this.tokenChanges += 1;
    try {
      return await request();
    } finally {
      this.tokenChanges -= 1;
    }
  }
  user(id) { return this.request('GET', `/users/${encodeURIComponent(id)}`); }
  users(query = '') {
    return this.request('GET', query ? `/users?query=${encodeURIComponent(query)}` : '/users');
  }

  // §6.4 contacts: the people I share a direct room or group with, and those I added
  contacts() { return this.request('GET', '/me/contacts'); }
  addContact(username) { return this.request('POST', '/me/contacts', { body: { username } }); }
  removeContact(userID) { return this.request('DELETE', `/me/contacts/${encodeURIComponent(userID)}`); }

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
  /** One page (§7): the newest, or `before`, `after` or `around` a seq. */
  history(roomID, { before, after, around, limit = 50 } = {}) {
    const query = new URLSearchParams({ limit: String(limit) });
    if (before) query.set('before', String(before));
    if (after !== undefined) query.set('after', String(after));
    if (around !== undefined) query.set('around', String(around));
    return this.request('GET', `/rooms/${encodeURIComponent(roomID)}/messages?${query}`);
  }

  // §7.5 pinned chats, drafts and marked unread, §7.6 forwarding
  setPinned(roomID, pinned) { return this.request(pinned ? 'PUT' : 'DELETE', `/rooms/${encodeURIComponent(roomID)}/pin`); }
  setMarkedUnread(roomID, marked) { return this.request(marked ? 'PUT' : 'DELETE', `/rooms/${encodeURIComponent(roomID)}/unread`); }
  /** Sends message `seq` of room `sourceID` again in room `targetID`; resolves with the copy's ack (§8.3). */
  forward(targetID, sourceID, seq, clientMsgID) {
    return this.request('POST', `/rooms/${encodeURIComponent(targetID)}/forward`, { body: { room: sourceID, seq, clientMsgID } });
  }
  /** An empty text (or only whitespace) clears the draft. */
  saveDraft(roomID, text) { return this.request('PUT', `/rooms/${encodeURIComponent(roomID)}/draft`, { body: { text } }); }

  // §7.8 pinned messages: a room's, most recently pinned first; pinning or unpinning one
  pins(roomID) { return this.request('GET', `/rooms/${encodeURIComponent(roomID)}/pins`); }
  setMessagePinned(roomID, seq, pinned) {
    return this.request(pinned ? 'PUT' : 'DELETE', `/rooms/${encodeURIComponent(roomID)}/messages/${seq}/pin`);
  }

  // §9.10 mentions and notification levels, §9.11 Web Push subscriptions
  /** `level`: all, mentions or none; resolves with the room's summary. */
  setNotificationLevel(roomID, level) {
    return this.request('PUT', `/rooms/${encodeURIComponent(roomID)}/notifications`, { body: { level } });
  }
  /** One page of the messages that mention me, newest first: {messages, next}. */
  mentions({ before = null, limit = 20 } = {}) {
    const query = new URLSearchParams({ limit: String(limit) });
    if (before) query.set('before', String(before));
    return this.request('GET', `/mentions?${query}`);
  }
  pushKey() { return this.request('GET', '/push/key'); }
  /** `subscription`: what PushSubscription.toJSON() gives ({endpoint, keys}). */
  addPushSubscription(subscription) { return this.request('POST', '/push/subscriptions', { body: subscription }); }
  removePushSubscription(endpoint) { return this.request('DELETE', '/push/subscriptions', { body: { endpoint } }); }

  // §7.3 roles and moderation, §7.4 reports
  setRole(roomID, userID, role) { return this.request('PUT', `${memberPath(roomID, userID)}/role`, { body: { role } }); }
  removeMember(roomID, userID) { return this.request('DELETE', memberPath(roomID, userID)); }
  bans(roomID) { return this.request('GET', `/rooms/${encodeURIComponent(roomID)}/bans`); }
  /** `put`: true bans (or mutes), false lifts it. `list`: 'bans' or 'mutes'. */
  restrict(roomID, list, userID, put) {
    return this.request(put ? 'PUT' : 'DELETE', `/rooms/${encodeURIComponent(roomID)}/${list}/${encodeURIComponent(userID)}`);
  }
  removeMessage(roomID, seq) { return this.request('DELETE', `/rooms/${encodeURIComponent(roomID)}/messages/${seq}`); }
  /** Resolves with {report, created}: `created` false when I had reported that message before (200, not 201). */
  async report(roomID, seq, reason) {
    const response = await this.send('POST', `/rooms/${encodeURIComponent(roomID)}/messages/${seq}/report`, { body: { reason } });
    return { report: await response.json().catch(() => null), created: response.status === 201 };
  }
  /** One page of reports, {reports, next}: a room's (`roomID`), or every room's for an administrator (null). */
  reports(roomID, { state = 'open', after = null, limit = 50 } = {}) {
    const path = roomID ? `/rooms/${encodeURIComponent(roomID)}/reports` : '/admin/reports';
    return this.request('GET', `${path}?${pageQuery({ state, after, limit })}`);
  }
  resolveReport(id, action) { return this.request('POST', `/reports/${encodeURIComponent(id)}/resolve`, { body: { action } }); }

  // §9.3 attachments, §9.7 search and config
  /** `durationMs`: a voice recording's length as the recorder measured it (§9.3 "Voice messages"). */
  upload(file, durationMs = null) {
    const query = new URLSearchParams({ name: file.name || 'file' });
    if (durationMs) query.set('duration', String(Math.round(durationMs)));
    return this.request('POST', `/attachments?${query}`, { rawBody: file, contentType: file.type || 'application/octet-stream' });
  }
  /** `filters`: room (an id), from (a username), has ('link,image,file'), before and after (YYYY-MM-DD). */
  search(q, { limit = 20, ...filters } = {}) {
    const query = new URLSearchParams({ q, limit: String(limit) });
    for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
    return this.request('GET', `/search?${query}`);
  }
  config() { return this.request('GET', '/config', { auth: false }); }

  /** Removes the link preview of a message of mine (§9.1): the change comes back as a `preview` event. */
  removePreview(roomID, seq) { return this.request('DELETE', `/rooms/${encodeURIComponent(roomID)}/messages/${seq}/preview`); }

  // §9.13 bots, §9.14 incoming webhooks
  bots() { return this.request('GET', '/bots'); }
  createBot(username, displayName) {
    return this.request('POST', '/bots', { body: displayName ? { username, displayName } : { username } });
  }
  newBotToken(botID) { return this.request('POST', `/bots/${encodeURIComponent(botID)}/token`); }
  /** `webhookURL`: an address, or null for none. */
  setBotWebhook(botID, webhookURL) { return this.request('PATCH', `/bots/${encodeURIComponent(botID)}`, { body: { webhookURL } }); }
  botDeliveries(botID) { return this.request('GET', `/bots/${encodeURIComponent(botID)}/deliveries`); }
  deleteBot(botID) { return this.request('DELETE', `/bots/${encodeURIComponent(botID)}`); }
  webhooks(roomID) { return this.request('GET', `/rooms/${encodeURIComponent(roomID)}/webhooks`); }
  createWebhook(roomID, name) { return this.request('POST', `/rooms/${encodeURIComponent(roomID)}/webhooks`, { body: { name } }); }
  deleteWebhook(roomID, webhookID) {
    return this.request('DELETE', `/rooms/${encodeURIComponent(roomID)}/webhooks/${encodeURIComponent(webhookID)}`);
  }

  // §6.5, §7.7 pictures: the image is the request's body
  setAvatar(image) { return this.request('PUT', '/me/avatar', { rawBody: image, contentType: image.type }); }
  removeAvatar() { return this.request('DELETE', '/me/avatar'); }
  setRoomAvatar(roomID, image) {
    return this.request('PUT', `/rooms/${encodeURIComponent(roomID)}/avatar`, { rawBody: image, contentType: image.type });
  }
  removeRoomAvatar(roomID) { return this.request('DELETE', `/rooms/${encodeURIComponent(roomID)}/avatar`); }

  // §10.6 my data, §10.7 blocking
  exportMyData() { return this.download('/me/export'); }
  deleteMe(password) { return this.endingToken(() => this.request('DELETE', '/me', { body: { password } })); }
  blocks() { return this.request('GET', '/me/blocks'); }
  block(userID) { return this.request('PUT', `/me/blocks/${encodeURIComponent(userID)}`); }
  unblock(userID) { return this.request('DELETE', `/me/blocks/${encodeURIComponent(userID)}`); }

  // §10 administration (administrators only)
  adminUsers({ query = '', after = null, limit = 50 } = {}) {
    return this.request('GET', `/admin/users?${pageQuery({ query, after, limit })}`);
  }
  /** `action`: deactivate, reactivate, grant or revoke; resolves with the AdminUser as it is now. */
  changeUser(userID, action) { return this.request('POST', `/admin/users/${encodeURIComponent(userID)}/${action}`); }
  passwordResetLink(userID) { return this.request('POST', `/admin/users/${encodeURIComponent(userID)}/password-reset`); }
  deleteUser(userID) { return this.request('DELETE', `/admin/users/${encodeURIComponent(userID)}`); }
  invites() { return this.request('GET', '/invites'); }
  createInvite(options) { return this.request('POST', '/invites', { body: options }); }
  revokeInvite(code) { return this.request('DELETE', `/invites/${encodeURIComponent(code)}`); }
  adminRooms({ after = null, limit = 50 } = {}) { return this.request('GET', `/admin/rooms?${pageQuery({ after, limit })}`); }
  audit({ after = null, limit = 100 } = {}) { return this.request('GET', `/admin/audit?${pageQuery({ after, limit })}`); }

  /** The URL an `<img>` can load an attachment from (the token rides in the query: `<img>` sends no headers). */
  attachmentURL(id) {
    return `${BASE}/attachments/${encodeURIComponent(id)}?token=${encodeURIComponent(this.getToken() || '')}`;
  }
}

function memberPath(roomID, userID) {
  return `/rooms/${encodeURIComponent(roomID)}/members/${encodeURIComponent(userID)}`;
}

/** The query of a paged list (§10): what is set of `query`, `after` and `limit`. */
function pageQuery(fields) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== null && value !== '') query.set(name, String(value));
  return query;
}
