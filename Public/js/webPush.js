// Web Push on this device (PROTOCOL.md §9.11): this browser's push service is subscribed with the server's key and
// the subscription handed to the server, which then pushes new messages while none of my devices is connected;
// turning it off does the reverse. The service worker (sw.js) shows what arrives. Permission is asked only when the
// person turns it on (a click).

// How long the browser's push service may take to subscribe (it may never answer: offline, or no service at all).
const SUBSCRIBE_WAIT_MS = 20_000;

/**
 * Why push could not be turned on (`problem`, never a server's error code): 'unsupported', 'denied' (notifications
 * blocked), 'refused' (by the browser, with its `reason`) or 'timeout' (its push service did not answer).
 */
export class PushError extends Error {
  constructor(problem, reason = '') {
    super(reason || problem);
    this.problem = problem;
    this.reason = reason;
  }
}

export class WebPush {
  constructor(api) {
    this.api = api;
  }

  /** Whether this browser can receive push messages at all (service workers, the Push API, notifications). */
  supported() {
    return 'serviceWorker' in navigator && 'PushManager' in window && typeof Notification !== 'undefined';
  }

  async subscription() {
    if (!this.supported()) return null;
    const registration = await navigator.serviceWorker.getRegistration();
    return (await registration?.pushManager.getSubscription()) ?? null;
  }

  /** Turns push on: asks for permission, subscribes, tells the server. Rejects with a PushError or an ApiError. */
  async enable() {
    if (!this.supported()) throw new PushError('unsupported');
    if (Notification.permission === 'default') await Notification.requestPermission();
    if (Notification.permission !== 'granted') throw new PushError('denied');
    const { publicKey } = await this.api.pushKey();
    const registration = await navigator.serviceWorker.ready;
    let subscription;
    let timer;
    const noAnswer = new Promise((resolve, reject) => { timer = setTimeout(() => reject(new PushError('timeout')), SUBSCRIBE_WAIT_MS); });
    try {
      subscription = await Promise.race([
        registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64urlBytes(publicKey) }),
        noAnswer,
      ]);
    } catch (error) {
      throw error instanceof PushError ? error : new PushError('refused', error.message || error.name);
    } finally {
      clearTimeout(timer);
    }
    try {
      await this.api.addPushSubscription(subscription.toJSON());
    } catch (error) {
      await subscription.unsubscribe().catch(() => {});
      throw error;
    }
  }

  /** Turns push off: the server forgets the subscription (if it had it), and the browser drops it. */
  async disable() {
    const subscription = await this.subscription();
    if (!subscription) return;
    try {
      await this.api.removePushSubscription(subscription.endpoint);
    } catch (error) {
      if (error.code !== 'not_found') throw error;
    }
    await subscription.unsubscribe();
  }
}

function base64urlBytes(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '='));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}
