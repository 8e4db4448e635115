// Pinning and unpinning a message, from the message menu or the pinned bar: the `pin` event that follows shows it;
// a refusal is said in a note, in words about pinning (the server's codes are shared with other requests).
import { describeError, t } from '../strings.js';
import { showToast } from './toast.js';

export async function setMessagePinned(client, roomID, seq, pinned) {
  try {
    await client.setMessagePinned(roomID, seq, pinned);
  } catch (error) {
    showToast(pinRefusal(error), { alert: true });
  }
}

function pinRefusal(error) {
  if (error.reason === 'muted') return t('mutedComposer');
  if (error.code === 'not_allowed') return t('pinNotAllowed');
  if (error.code === 'too_many_pins') return t('tooManyPins');
  return describeError(error);
}
