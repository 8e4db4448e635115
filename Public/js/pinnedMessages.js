// Pinned messages (WeChat's 置顶 on a message; PROTOCOL.md §7.8): each open chat's list of them, most recently
// pinned first, as its pinned bar shows it. A list is read from the server when its chat opens (GET /rooms/{id}/pins)
// and kept current by the room's events: a `pin` adds or removes one, a delete removes one, an edit changes its text.
// Views hear `pins:<room id>` (through the store) when a list changes.
import { canModerate } from './moderation.js';

/**
 * Whether someone of `rank` may pin in a room of `kind`: any member of a direct chat or a group; in a channel, its
 * moderators (owners and administrators too).
 */
export function canPin(kind, rank) {
  return kind !== 'channel' || canModerate(rank);
}

export class PinnedMessages {
  constructor(api, store) {
    this.api = api;
    this.store = store;
    // room id → {messages, since: the room's latest seq when last asked (the answer includes every event up to it),
    // arrivedMeanwhile: the events that came while asking (null when not asking), loaded: the last answer came,
    // request: the one under way}
    this.lists = new Map();
  }

  /** The pinned messages of a room as far as known, most recently pinned first. */
  list(roomID) {
    return this.lists.get(roomID)?.messages ?? [];
  }

  /** Whether a room's list was asked for and came (a failed request is asked again on the next connection). */
  loaded(roomID) {
    return this.lists.get(roomID)?.loaded === true;
  }

  /**
   * Reads a room's list from the server (once at a time). Events that arrive while it is asked for may or may not be
   * in the answer, so they are applied again on it: each one leaves the same list however often it is applied.
   */
  load(roomID) {
    const entry = this.lists.get(roomID) ?? { messages: [], since: 0, arrivedMeanwhile: null, loaded: false, request: null };
    this.lists.set(roomID, entry);
    entry.request ??= this.read(roomID, entry).finally(() => { entry.request = null; });
    return entry.request;
  }

  async read(roomID, entry) {
    const since = this.store.rooms.get(roomID)?.latestSeq ?? 0;
    entry.arrivedMeanwhile = [];
    let messages;
    try {
      ({ messages } = await this.api.pins(roomID));
    } catch (error) {
      Object.assign(entry, { arrivedMeanwhile: null, loaded: false });
      throw error;
    }
    const arrived = entry.arrivedMeanwhile;
    Object.assign(entry, { messages, since, arrivedMeanwhile: null, loaded: true });
    for (const event of arrived) this.fold(roomID, entry, event);
    this.store.emit(`pins:${roomID}`);
  }

  /** A room event, live or replayed (§8.2): what it changes in a list that was read. */
  apply(event) {
    const entry = this.lists.get(event.room);
    if (!entry) return;
    if (entry.arrivedMeanwhile) entry.arrivedMeanwhile.push(event);
    else if (this.fold(event.room, entry, event)) this.store.emit(`pins:${event.room}`);
  }

  /** Changes the list as `event` says; returns whether it changed. */
  fold(roomID, entry, event) {
    if (event.seq <= entry.since) return false; // the list includes it
    const pinned = entry.messages.find((message) => message.seq === event.target);
    const without = () => entry.messages.filter((message) => message.seq !== event.target);
    if (event.kind === 'pin' && event.added === true) {
      if (pinned) return false;
      const message = this.store.rooms.get(roomID)?.messages.get(event.target);
      // A message that is not loaded here comes with the whole list, read again once the request under way (whose
      // answer this event may be replayed on) has ended.
      if (!message) {
        setTimeout(() => this.load(roomID).catch(() => {}), 0);
        return false;
      }
      entry.messages = [{ ...message, pinned: true }, ...entry.messages];
      return true;
    }
    if (!pinned) return false;
    if ((event.kind === 'pin' && event.added === false) || event.kind === 'delete') {
      entry.messages = without();
      return true;
    }
    if (event.kind === 'edit') {
      const edited = { ...pinned, text: event.text, editedAt: event.date };
      entry.messages = entry.messages.map((message) => (message === pinned ? edited : message));
      return true;
    }
    return false;
  }
}
