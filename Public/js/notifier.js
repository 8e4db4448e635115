// Telling a person about new messages when they are not looking: desktop notifications (permission is asked only
// when they click to turn them on), an optional short sound, and the unread count on the tab's icon. Each chat's
// notification level, kept by the server (§9.10), says what of it does so: everything (`all`), only messages that
// mention me (`mentions`), or nothing (`none`). Before the server kept levels, mutes were kept in this browser: the
// client hands those to the server once (`localMutes`, `forgetLocalMute`).
import { userStorageKey } from './session.js';
import { messageSummary } from './views/preview.js';

const APP_ICON = '/icons/app.svg';
const BADGE_SIZE = 64;

export class Notifier {
  constructor(store, userID) {
    this.store = store;
    this.mutedKey = userStorageKey(userID, 'muted');
    this.settingsKey = userStorageKey(userID, 'notify');
    this.settings = { desktop: false, sound: false, ...readJSON(this.settingsKey, {}) };
    this.audio = null;
  }

  // MARK: notification levels, per chat (§9.10)

  level(roomID) {
    return this.store.rooms.get(roomID)?.notifications ?? 'all';
  }

  /** A chat that notifies me of nothing: the list and its header mark it. */
  isMuted(roomID) {
    return this.level(roomID) === 'none';
  }

  /** Whether a message of the room notifies me (sound, desktop) at the room's level. */
  wants(room, message) {
    return room.notifications === 'all' || (room.notifications === 'mentions' && this.store.mentionsMe(message));
  }

  /**
   * What the title and the icon count: the unread messages of chats at `all`, the unread mentions of chats at
   * `mentions`, nothing of chats at `none`.
   */
  unreadCount() {
    let total = 0;
    for (const room of this.store.rooms.values()) {
      if (room.notifications === 'all') total += room.unreadCount;
      else if (room.notifications === 'mentions') total += room.mentionCount;
    }
    return total;
  }

  /** The chats muted in this browser before the server kept levels (to be set to `none` there once). */
  localMutes() {
    const muted = readJSON(this.mutedKey, []);
    return Array.isArray(muted) ? muted.filter((id) => typeof id === 'string') : [];
  }

  /** A local mute the server has now (or that names a chat I am no longer in); the list goes when it is empty. */
  forgetLocalMute(roomID) {
    const rest = this.localMutes().filter((id) => id !== roomID);
    if (rest.length > 0) localStorage.setItem(this.mutedKey, JSON.stringify(rest));
    else localStorage.removeItem(this.mutedKey);
  }

  // MARK: settings

  /** 'granted', 'denied', 'default' (not asked yet) or 'unsupported'. */
  permission() {
    return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
  }

  /** Turns desktop notifications on or off; turning them on asks for permission (call it from a click). */
  async setDesktop(enabled) {
    if (enabled && this.permission() === 'default') await Notification.requestPermission();
    this.settings.desktop = enabled && this.permission() === 'granted';
    this.save();
    return this.settings.desktop;
  }

  setSound(enabled) {
    this.settings.sound = enabled;
    if (enabled) this.beep(); // a click is the gesture that lets audio start
    this.save();
  }

  save() {
    localStorage.setItem(this.settingsKey, JSON.stringify(this.settings));
    this.store.emit('settings');
  }

  // MARK: a new message arrived

  /** `live` is {room, message}; `watching` says whether the person is looking at that chat now. */
  notify(live, watching) {
    if (!live || watching || !this.wants(live.room, live.message)) return;
    if (this.settings.sound) this.beep();
    if (!this.settings.desktop || this.permission() !== 'granted') return;
    const name = this.store.displayName(live.message.sender?.id, live.message.sender?.name ?? '');
    const title = live.room.kind === 'direct' ? name : live.room.name;
    const body = live.room.kind === 'direct' ? messageSummary(live.message) : `${name}: ${messageSummary(live.message)}`;
    try {
      const notification = new Notification(title, { body, tag: live.room.id, icon: APP_ICON });
      notification.onclick = () => {
        window.focus();
        location.hash = `#/chat/${encodeURIComponent(live.room.id)}`;
        notification.close();
      };
    } catch {
      // Some browsers only allow notifications from a service worker; the badge and the title still count.
    }
  }

  beep() {
    try {
      this.audio ??= new AudioContext();
      const oscillator = this.audio.createOscillator();
      const gain = this.audio.createGain();
      oscillator.frequency.value = 880;
      gain.gain.setValueAtTime(0.08, this.audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, this.audio.currentTime + 0.25);
      oscillator.connect(gain).connect(this.audio.destination);
      oscillator.start();
      oscillator.stop(this.audio.currentTime + 0.25);
    } catch {
      // no audio here
    }
  }

  /** The tab's icon: the app's, with the unread count on a red dot when there is something unread. */
  updateBadge(count) {
    const link = document.querySelector('link[rel="icon"]');
    if (!link) return;
    if (count <= 0) {
      if (link.getAttribute('href') !== APP_ICON) link.setAttribute('href', APP_ICON);
      link.dataset.count = '0';
      return;
    }
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = BADGE_SIZE;
    const context = canvas.getContext('2d');
    context.fillStyle = '#07c160';
    context.beginPath();
    context.roundRect(0, 0, BADGE_SIZE, BADGE_SIZE, 14);
    context.fill();
    context.fillStyle = '#d32f2f';
    context.beginPath();
    context.arc(42, 22, 22, 0, Math.PI * 2);
    context.fill();
    context.fillStyle = '#ffffff';
    context.font = 'bold 26px sans-serif';
    context.textAlign = 'center';
    context.textBaseline = 'middle';
    context.fillText(count > 9 ? '9+' : String(count), 42, 23);
    link.setAttribute('href', canvas.toDataURL('image/png'));
    link.dataset.count = String(count);
  }
}

function readJSON(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key)) ?? fallback;
  } catch {
    return fallback;
  }
}

