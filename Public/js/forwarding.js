// Forwarding messages to other chats (PROTOCOL.md §7.6, WeChat's 转发): one request per message and chat, in the
// order the messages were sent, so each chosen chat gets them as they were. Each copy has its own clientMsgID, reused
// when the network fails and the request is made again, so a copy the server took before the answer was lost is not
// sent twice (the server answers such a retry with the first copy's ack).
import { newClientMsgID } from './outbox.js';

// Waits before each new attempt after a network failure; the last failure is reported.
const RETRY_DELAYS_MS = [500, 1_500, 3_000];

/**
 * Forwards messages `seqs` of room `sourceID` to every room of `targetIDs`, one at a time. Resolves with what failed:
 * [{targetID, seq, error}] (an ApiError: its message is the server's), empty when every copy was sent.
 */
export async function forwardMessages(api, sourceID, seqs, targetIDs) {
  const failures = [];
  for (const targetID of targetIDs) {
    for (const seq of seqs) {
      try {
        await forwardOnce(api, targetID, sourceID, seq);
      } catch (error) {
        failures.push({ targetID, seq, error });
      }
    }
  }
  return failures;
}

async function forwardOnce(api, targetID, sourceID, seq) {
  const clientMsgID = newClientMsgID();
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await api.forward(targetID, sourceID, seq, clientMsgID);
    } catch (error) {
      if (error.code !== 'unreachable' || attempt >= RETRY_DELAYS_MS.length) throw error;
      await new Promise((resolve) => { setTimeout(resolve, RETRY_DELAYS_MS[attempt]); });
    }
  }
}
