// What the Administration screens ask of the server (docs/PROTOCOL.md §10): accounts, invitations, rooms, the audit
// log and the registration mode. Accounts seen in a list are remembered, so a user's page opens at once from it.

// Accounts whose names contain the one looked up, among which it is found (the most a page holds).
const NAME_LOOKUP_LIMIT = 200;

export class Administration {
  constructor(api) {
    this.api = api;
    this.known = new Map(); // user id → AdminUser, as last seen in a list or an answer
  }

  /** One page of accounts whose username or display name contains `query`: {users, next}. */
  async users(query, after = null, limit = undefined) {
    const page = await this.api.adminUsers({ query, after, limit });
    for (const user of page.users) this.remember(user);
    return page;
  }

  /**
   * An account by id. One not seen in a list yet (a page opened from its address) is found by its username: there
   * is no route for one account, so its profile (`GET /users/{id}`) names it and the search finds it.
   */
  async user(id) {
    if (this.known.has(id)) return this.known.get(id);
    const profile = await this.api.user(id);
    const { users } = await this.users(profile.username, null, NAME_LOOKUP_LIMIT);
    const user = users.find((candidate) => candidate.profile.id === id);
    if (!user) throw Object.assign(new Error('unknown user'), { code: 'unknown_user' });
    return user;
  }

  /** `action`: deactivate, reactivate, grant or revoke. Resolves with the account as it is now. */
  async change(id, action) {
    return this.remember(await this.api.changeUser(id, action));
  }

  /** A one-time link that sets the account's password (24 h): {url, code, expiresAt}. */
  passwordResetLink(id) {
    return this.api.passwordResetLink(id);
  }

  async deleteUser(id) {
    await this.api.deleteUser(id);
    this.known.delete(id);
  }

  invites() {
    return this.api.invites();
  }

  /** `maxUses` and `expiresInHours` are numbers or null (no limit). */
  createInvite({ maxUses, expiresInHours }) {
    const options = {};
    if (maxUses) options.maxUses = maxUses;
    if (expiresInHours) options.expiresInHours = expiresInHours;
    return this.api.createInvite(options);
  }

  revokeInvite(code) {
    return this.api.revokeInvite(code);
  }

  /** One page of rooms, every kind: {rooms, next}. */
  rooms(after = null) {
    return this.api.adminRooms({ after });
  }

  /** One page of the audit log, oldest first: {entries, next}. */
  audit(after = null) {
    return this.api.audit({ after });
  }

  /** Who may register here (`open`, `invite` or `closed`), as the server's config says. */
  async registration() {
    return (await this.api.config()).registration ?? null;
  }

  remember(user) {
    this.known.set(user.profile.id, user);
    return user;
  }
}
