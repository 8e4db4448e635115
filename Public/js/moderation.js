// Moderating channels and groups (docs/PROTOCOL.md §7.3) and reports of messages (§7.4): who outranks whom, and what
// moderators, owners and administrators ask of the server. The changes come back as events of the room (§9.1).

// member < moderator < owner < administrator (an administrator outranks everyone, in every room).
const RANKS = { member: 0, moderator: 1, owner: 2 };
const ADMINISTRATOR_RANK = 3;

/** The rank of someone with this room `role` (owner, moderator, member), `admin` when a server administrator. */
export function rankOf(role, admin = false) {
  return admin ? ADMINISTRATOR_RANK : RANKS[role] ?? 0;
}

/** Whether my rank lets me moderate (remove, ban, mute, delete others' messages) in a room at all. */
export function canModerate(myRank) {
  return myRank >= RANKS.moderator;
}

/** Whether my rank lets me give roles (the owner's and the administrators'). */
export function canGiveRoles(myRank) {
  return myRank >= RANKS.owner;
}

export class Moderation {
  constructor(api) {
    this.api = api;
  }

  /** `role`: member, moderator or owner (the previous owner becomes a moderator). */
  setRole(roomID, userID, role) {
    return this.api.setRole(roomID, userID, role);
  }

  removeMember(roomID, userID) {
    return this.api.removeMember(roomID, userID);
  }

  setBanned(roomID, userID, banned) {
    return this.api.restrict(roomID, 'bans', userID, banned);
  }

  setMuted(roomID, userID, muted) {
    return this.api.restrict(roomID, 'mutes', userID, muted);
  }

  /** The profiles of everyone banned from the room. */
  bans(roomID) {
    return this.api.bans(roomID);
  }

  /** A moderator deletes someone else's message: every member sees it removed by a moderator. */
  removeMessage(roomID, seq) {
    return this.api.removeMessage(roomID, seq);
  }

  /** Reports a message to the room's moderators: resolves with {report, created} (false: reported before). */
  report(roomID, seq, reason) {
    return this.api.report(roomID, seq, reason);
  }

  /** One page of reports ({reports, next}): a room's, or every room's (`roomID` null, administrators). */
  reports(roomID, state, after = null) {
    return this.api.reports(roomID, { state, after });
  }

  /** `action`: dismiss, delete-message, remove-member, ban-member or deactivate-account (administrators). */
  resolve(reportID, action) {
    return this.api.resolveReport(reportID, action);
  }
}
