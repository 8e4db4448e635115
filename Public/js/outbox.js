// Everything the user asked to send (messages, edits, deletes, reactions) waits here until the server acknowledges
// it (docs/PROTOCOL.md §8.3, §9.2). The outbox is kept in localStorage, so neither a lost connection nor a reload
// loses anything, and every retry reuses the entry's clientMsgID, so the server stores each one exactly once.
//
// Entries go out one at a time, in order, the next only when the previous one is acknowledged or has failed:
// this keeps the order the user typed in even when the server's rate limit rejects some of them.

const ACK_TIMEOUT_MS = 15_000;
const TRANSIENT_RETRY_MS = 1_200;
// Errors after which the same frame may succeed later (§8.6); any other error is final for that frame.
const TRANSIENT_ERRORS = new Set(['rate_limited', 'unavailable']);

export const EntryState = Object.freeze({ PENDING: 'pending', FAILED: 'failed' });

export function newClientMsgID() {
  return crypto.randomUUID ? crypto.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export class Outbox {
  /**
   * storageKey: where the entries persist.
   * transmit(frame): sends over the socket; false when offline.
   * onChange(roomID): an entry of that room was added, changed or removed.
   */
  constructor({ storageKey, transmit, onChange }) {
    Object.assign(this, { storageKey, transmit, onChange });
    this.entries = this.load();
    this.inFlight = null; // the clientMsgID awaiting its ack
    this.ackTimer = null;
    this.retryTimer = null;
  }

  load() {
    try {
      const entries = JSON.parse(localStorage.getItem(this.storageKey)) || [];
      return Array.isArray(entries) ? entries.filter((entry) => entry?.clientMsgID && entry.frame) : [];
    } catch {
      return [];
    }
  }

  persist() {
    localStorage.setItem(this.storageKey, JSON.stringify(this.entries));
  }

  /** Queues a frame (its clientMsgID is added here). `meta` holds what the UI needs to show it before the ack. */
  add(frame, meta = {}) {
    const entry = {
      clientMsgID: newClientMsgID(),
      frame,
      meta,
      state: EntryState.PENDING,
      createdAt: Date.now(),
    };
    entry.frame.clientMsgID = entry.clientMsgID;
    this.entries.push(entry);
    this.persist();
    this.onChange(frame.room);
    this.pump();
    return entry;
  }

  entriesForRoom(roomID) {
    return this.entries.filter((entry) => entry.frame.room === roomID);
  }

  find(clientMsgID) {
    return this.entries.find((entry) => entry.clientMsgID === clientMsgID);
  }

  /** The server has the frame: forget it. Returns the entry, or undefined if it was not ours (or already gone). */
  acknowledge(clientMsgID) {
    const entry = this.find(clientMsgID);
    if (!entry) return undefined;
    this.remove(entry);
    return entry;
  }

  /** The server refused the frame (an `error` frame whose ref is its clientMsgID). */
  reject(clientMsgID, code) {
    const entry = this.find(clientMsgID);
    if (!entry) return;
    if (this.inFlight === clientMsgID) this.clearInFlight();
    if (TRANSIENT_ERRORS.has(code)) {
      this.retryLater();
      return;
    }
    this.fail(entry, code);
    this.pump();
  }

  /** The user asked to send a failed entry again (same clientMsgID). */
  retry(clientMsgID) {
    const entry = this.find(clientMsgID);
    if (!entry || entry.state !== EntryState.FAILED) return;
    entry.state = EntryState.PENDING;
    delete entry.error;
    // Back of the queue: the user's retry is a new intention, after what is already queued.
    this.entries.splice(this.entries.indexOf(entry), 1);
    this.entries.push(entry);
    this.persist();
    this.onChange(entry.frame.room);
    this.pump();
  }

  discard(clientMsgID) {
    const entry = this.find(clientMsgID);
    if (entry) this.remove(entry);
  }

  /** The connection is resumed: send what waits. Whatever was in flight on the old connection is sent again. */
  connectionReady() {
    this.clearInFlight();
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.pump();
  }

  /** The connection is gone: nothing is in flight any more (un-acked entries stay pending and go out again). */
  connectionLost() {
    this.clearInFlight();
  }

  /** Nothing more goes out or changes (the account signed out). */
  stop() {
    this.clearInFlight();
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.transmit = () => false;
  }

  pump() {
    if (this.inFlight || this.retryTimer) return;
    const next = this.entries.find((entry) => entry.state === EntryState.PENDING);
    if (!next || !this.transmit(next.frame)) return;
    this.inFlight = next.clientMsgID;
    this.ackTimer = setTimeout(() => {
      // Sent on an open connection but never answered: let the user decide to retry.
      this.clearInFlight();
      this.fail(next, 'timeout');
      this.pump();
    }, ACK_TIMEOUT_MS);
  }

  retryLater() {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.pump();
    }, TRANSIENT_RETRY_MS);
  }

  fail(entry, code) {
    entry.state = EntryState.FAILED;
    entry.error = code;
    this.persist();
    this.onChange(entry.frame.room);
  }

  remove(entry) {
    this.entries.splice(this.entries.indexOf(entry), 1);
    if (this.inFlight === entry.clientMsgID) {
      this.clearInFlight();
    }
    this.persist();
    this.onChange(entry.frame.room);
    this.pump();
  }

  clearInFlight() {
    clearTimeout(this.ackTimer);
    this.ackTimer = null;
    this.inFlight = null;
  }
}
