// Drafts: the text I left unsent in a chat, kept by the server for every device of the account (PROTOCOL.md §7.5:
// summaries carry `draft`, PUT /rooms/{id}/draft changes it). A change is sent a moment after typing stops, not at
// each key, and until the server has it, it is kept in this browser (so a reload or a lost connection loses
// nothing) and wins over the summary's older draft. What is kept here is only what the server does not have yet.

const SAVE_DELAY_MS = 1_000;

export class Drafts {
  /** `storageKey`: where unsaved drafts wait in localStorage. */
  constructor({ api, store, storageKey }) {
    Object.assign(this, { api, store, storageKey });
    this.unsaved = load(storageKey); // room id → text the server does not have yet ('' clears)
    this.timers = new Map();
  }

  /** The draft of a room: mine not saved yet, else the server's. */
  text(roomID) {
    return this.unsaved[roomID] ?? this.store.rooms.get(roomID)?.draft ?? '';
  }

  /** Whether a draft is still to reach the server (signing out now would lose it). */
  pending() {
    return Object.keys(this.unsaved).length > 0;
  }

  /** Keeps what is typed here and sends it once typing stops. */
  change(roomID, text) {
    if (text === this.text(roomID)) return;
    this.unsaved[roomID] = text;
    this.persist();
    clearTimeout(this.timers.get(roomID));
    this.timers.set(roomID, setTimeout(() => this.send(roomID), SAVE_DELAY_MS));
  }

  /** Sends a room's draft now (leaving the chat does not wait for the pause). */
  flushRoom(roomID) {
    if (this.timers.has(roomID)) this.send(roomID);
  }

  /** Sends every draft the server does not have yet (after connecting: what was typed offline). */
  flush() {
    for (const roomID of Object.keys(this.unsaved)) this.send(roomID);
  }

  async send(roomID) {
    clearTimeout(this.timers.get(roomID));
    this.timers.delete(roomID);
    const text = this.unsaved[roomID];
    if (text === undefined) return;
    try {
      await this.api.saveDraft(roomID, text);
    } catch (error) {
      // Out of the room: nowhere to keep it. Otherwise (unreachable, busy, too long) it stays here, and goes again
      // after the next connection.
      if (error.code === 'forbidden') this.forget(roomID, text);
      return;
    }
    this.forget(roomID, text);
    this.store.setDraft(roomID, text.trim() ? text : null);
  }

  /** The server has `text` (or refused it for good): unless it changed meanwhile, nothing waits here any more. */
  forget(roomID, text) {
    if (this.unsaved[roomID] !== text) return;
    delete this.unsaved[roomID];
    this.persist();
  }

  persist() {
    localStorage.setItem(this.storageKey, JSON.stringify(this.unsaved));
  }
}

function load(storageKey) {
  try {
    return JSON.parse(localStorage.getItem(storageKey)) || {};
  } catch {
    return {};
  }
}
