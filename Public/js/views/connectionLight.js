// The connection status light (the star-sign tutorial's idea): green when connected, grey otherwise.
import { el } from '../dom.js';
import { t } from '../strings.js';

const LABELS = { online: 'connected', connecting: 'connecting', offline: 'disconnected' };

/** A light that follows the store's connection status until its element leaves the document. */
export function connectionLight(store) {
  const light = el('span', { className: 'status-light', role: 'status' });
  const update = () => {
    if (!light.isConnected && light.dataset.state) {
      unsubscribe();
      return;
    }
    light.dataset.state = store.connection;
    light.setAttribute('aria-label', t(LABELS[store.connection]));
    light.title = t(LABELS[store.connection]);
  };
  const unsubscribe = store.on('connection', update);
  update();
  return light;
}
