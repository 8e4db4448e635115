// The banner that says the app is not connected: "Connecting…" at first, then "Offline — messages will be sent
// when the connection is back", when the next attempt starts, and a "Retry now" button. Hidden while online.
import { el } from '../dom.js';
import { t } from '../strings.js';
import { formatClock } from '../time.js';

export class ConnectionBanner {
  constructor(client) {
    this.client = client;
    this.store = client.store;
    this.text = el('span', { className: 'banner-text', id: 'connection-banner-text' });
    this.retryText = el('span', { className: 'banner-retry', id: 'connection-banner-retry' });
    this.retryButton = el('button', {
      type: 'button',
      className: 'banner-button',
      id: 'retry-now',
      text: t('retryNow'),
      on: { click: () => this.client.reconnectNow() },
    });
    // A landmark of its own, so nothing on the page stands outside one; the status inside is what gets announced.
    this.element = el('section', { className: 'connection-banner', id: 'connection-banner', 'aria-label': t('connection'), hidden: true },
      el('div', { className: 'banner-status', role: 'status' }, this.text, this.retryText), this.retryButton);
    this.unsubscribe = this.store.on('connection', () => this.render());
    this.render();
  }

  render() {
    const { connection, failedAttempts } = this.store;
    const offline = connection !== 'online' && (connection === 'offline' || failedAttempts > 0);
    this.element.hidden = connection === 'online';
    this.element.dataset.state = offline ? 'offline' : connection;
    this.element.dataset.attempts = String(failedAttempts);
    this.element.dataset.nextRetry = String(this.store.nextRetryAt ?? '');
    this.text.textContent = offline ? t('offlineBanner') : t('connecting');
    this.retryButton.hidden = !offline;
    this.renderRetry();
  }

  renderRetry() {
    const { connection, nextRetryAt } = this.store;
    if (connection === 'connecting') this.retryText.textContent = this.store.failedAttempts > 0 ? t('reconnecting') : '';
    else if (connection === 'offline' && nextRetryAt) this.retryText.textContent = t('nextRetry', { time: formatClock(nextRetryAt, { seconds: true }) });
    else this.retryText.textContent = '';
  }

  destroy() {
    this.unsubscribe();
  }
}
