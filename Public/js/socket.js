// The modern WebSocket (docs/PROTOCOL.md §8): one connection for every room, reconnected with exponential backoff
// and jitter, and resumed from the last seq of every room so nothing is missed or repeated.

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 10_000;
const KEEPALIVE_MS = 25_000;
// The server pings every 30 s and we ping every 25 s, so a silent minute means the connection is dead.
const SILENCE_LIMIT_MS = 65_000;

export const Status = Object.freeze({ CONNECTING: 'connecting', ONLINE: 'online', OFFLINE: 'offline' });

export class ChatSocket {
  /**
   * getToken(): the bearer token.
   * prepareResume(hello): async; returns {roomID: lastSeq} for the `resume` frame (after refreshing state).
   * onReady(): the connection is resumed and may carry sends.
   * onFrame(frame): every frame after `hello`, in order.
   * onStatus(status): Status changes.
   * onClosed(code): the connection closed with this close code (before any reconnection is scheduled).
   * onConnectFailed(): a connection closed before `hello` (the token may have been revoked).
   * onRetryScheduled(at): the next attempt starts at `at` (ms since 1970) unless reconnectNow() comes first.
   */
  constructor({ getToken, prepareResume, onReady, onFrame, onStatus, onClosed, onConnectFailed, onRetryScheduled }) {
    Object.assign(this, { getToken, prepareResume, onReady, onFrame, onStatus, onClosed, onConnectFailed, onRetryScheduled });
    this.ws = null;
    this.status = Status.OFFLINE;
    this.failedAttempts = 0;
    this.retryTimer = null;
    this.keepaliveTimer = null;
    this.lastFrameAt = 0;
    this.stopped = true;
    this.handleBrowserOnline = () => this.reconnectNow();
  }

  start() {
    this.stopped = false;
    window.addEventListener('online', this.handleBrowserOnline);
    this.connect();
  }

  stop() {
    this.stopped = true;
    window.removeEventListener('online', this.handleBrowserOnline);
    clearTimeout(this.retryTimer);
    this.dropConnection();
    this.setStatus(Status.OFFLINE);
  }

  /** Sends a frame if the connection is resumed; returns whether it went out. */
  send(frame) {
    if (this.status !== Status.ONLINE || this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  /** Skips the rest of a backoff wait, e.g. when the browser says the network is back. */
  reconnectNow() {
    if (this.stopped || this.ws) return;
    clearTimeout(this.retryTimer);
    this.connect();
  }

  /** Drops the connection (if any) and opens a new one at once, e.g. with a new token. */
  reconnectWithNewToken() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.dropConnection();
    this.failedAttempts = 0;
    this.connect();
  }

  connect() {
    this.retryTimer = null;
    this.setStatus(Status.CONNECTING);
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${scheme}//${location.host}/api/v1/ws?token=${encodeURIComponent(this.getToken())}`);
    this.ws = ws;
    let greeted = false;
    // Frames are handled one after another, even while an earlier one awaits (the resume preparation does).
    let pending = Promise.resolve();

    ws.addEventListener('message', (event) => {
      this.lastFrameAt = Date.now();
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      pending = pending.then(async () => {
        if (this.ws !== ws) return;
        if (frame.type === 'hello') {
          greeted = true;
          await this.resume(ws, frame);
        } else if (frame.type !== 'pong') {
          this.onFrame(frame);
        }
      }).catch((error) => console.error('frame handling failed', error));
    });

    ws.addEventListener('close', (event) => {
      if (this.ws !== ws) return;
      this.dropConnection();
      this.onClosed?.(event.code);
      if (this.stopped) return; // stopped because of how it closed (the account was deactivated)
      this.scheduleReconnect();
      this.setStatus(Status.OFFLINE);
      if (!greeted) this.onConnectFailed?.();
    });
  }

  async resume(ws, hello) {
    const positions = await this.prepareResume(hello);
    if (this.ws !== ws || ws.readyState !== WebSocket.OPEN) return;
    ws.send(JSON.stringify({ type: 'resume', rooms: positions }));
    this.failedAttempts = 0;
    this.startKeepalive(ws);
    this.setStatus(Status.ONLINE);
    this.onReady();
  }

  /** Sends this room's resume position on the open connection (for a room joined while connected). */
  follow(roomID, lastSeq) {
    return this.send({ type: 'resume', rooms: { [roomID]: lastSeq } });
  }

  startKeepalive(ws) {
    clearInterval(this.keepaliveTimer);
    this.keepaliveTimer = setInterval(() => {
      if (Date.now() - this.lastFrameAt > SILENCE_LIMIT_MS) {
        ws.close(); // the close handler reconnects
        return;
      }
      if (ws.readyState === WebSocket.OPEN) ws.send('{"type":"ping"}');
    }, KEEPALIVE_MS);
  }

  dropConnection() {
    clearInterval(this.keepaliveTimer);
    const ws = this.ws;
    this.ws = null;
    if (ws && ws.readyState <= WebSocket.OPEN) ws.close(1000);
  }

  scheduleReconnect() {
    this.failedAttempts += 1;
    const ceiling = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (this.failedAttempts - 1));
    // "Equal jitter": at least half the backoff, so clients that lost the same server do not return in step.
    const delay = ceiling / 2 + Math.random() * (ceiling / 2);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
    this.onRetryScheduled?.(Date.now() + delay);
  }

  setStatus(status) {
    if (this.status === status) return;
    this.status = status;
    this.onStatus(status);
  }
}
