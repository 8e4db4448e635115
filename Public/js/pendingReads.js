// Read positions sent but not yet confirmed by a receipt, kept in localStorage. A `read` is not acknowledged, and a
// reload (or a lost connection) right after opening a chat can beat it to the server: the room list fetched next
// would show the chat unread again. Until the server's receipt confirms a position, it is applied on top of what
// the server says and sent again on every reconnect (the server ignores a position it already has).

export class PendingReads {
  constructor(storageKey) {
    this.storageKey = storageKey;
    this.positions = new Map(Object.entries(this.load()));
  }

  /** Every unconfirmed position, as [roomID, seq] pairs. */
  entries() {
    return [...this.positions.entries()];
  }

  record(roomID, seq) {
    if (seq <= (this.positions.get(roomID) ?? 0)) return;
    this.positions.set(roomID, seq);
    this.save();
  }

  /** The server confirmed `seq` (a receipt from one of my devices): positions up to it are settled. */
  settle(roomID, seq) {
    if (!this.positions.has(roomID) || this.positions.get(roomID) > seq) return;
    this.positions.delete(roomID);
    this.save();
  }

  /** The server refused the position (already further, or the room is gone): nothing left to send. */
  drop(roomID) {
    if (this.positions.delete(roomID)) this.save();
  }

  load() {
    try {
      return JSON.parse(localStorage.getItem(this.storageKey)) || {};
    } catch {
      return {};
    }
  }

  save() {
    localStorage.setItem(this.storageKey, JSON.stringify(Object.fromEntries(this.positions)));
  }
}
