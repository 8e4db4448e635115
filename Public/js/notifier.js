// Telling a person about new messages when they are not looking: desktop notifications (permission is asked only
// when they click to turn them on), an optional short sound, and the unread count on the tab's icon. Muting a chat
// (kept in this browser: the server has no mute setting) silences all three for it.
import { userStorageKey } from './session.js';
import { messageSummary } from './views/preview.js';

const APP_ICON = '/icons/app.svg';
const BADGE_SIZE = 64;

export class Notifier {
  constructor(store, userID) {
    this.store = store;
    this.mutedKey = userStorageKey(userID, 'muted');
    this.settingsKey = userStorageKey(userID, 'notify');
    this.muted = new Set(readJSON(this.mutedKey, []));
    this.settings = { desktop: false, sound: false, ...readJSON(this.settingsKey, {}) };
    this.audio = null;
  }

  // MARK: mute, per chat

  isMuted(roomID) {
    return this.muted.has(roomID);
  }

  setMuted(roomID, muted) {
    if (muted) this.muted.add(roomID);
    else this.muted.delete(roomID);
    localStorage.setItem(this.mutedKey, JSON.stringify([...this.muted]));
    this.store.emit('settings');
    this.store.emit('rooms');
  }

  /** Unread messages in chats that are not muted: what the title and the icon count. */
  unreadCount() {
    let total = 0;
    for (const room of this.store.rooms.values()) if (!this.muted.has(room.id)) total += room.unreadCount;
    return total;
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
    if (!live || this.muted.has(live.room.id) || watching) return;
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

