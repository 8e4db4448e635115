// A voice message in a bubble (§9.3 "Voice messages"), as WeChat shows one: a play/pause button, the length, a
// progress bar while it plays, and a width that grows a little with the length. Someone else's voice message that I
// have not played yet has a small red dot until I do. One voice message plays at a time.
import { el, icon } from '../dom.js';
import { t } from '../strings.js';

const PLAY = 'M8 5.5v13l10-6.5z';
const PAUSE = ['M8 5v14', 'M16 5v14'];
const MIN_WIDTH_PX = 120;
const MAX_WIDTH_PX = 240;
const WIDTH_PER_SECOND_PX = 4;
const HEARD_LIMIT = 1000;

let playing = null; // the <audio> playing now

/** Whether an attachment is a recording (the server recognised its bytes as sound). */
export function isVoice(attachment) {
  return attachment?.contentType?.startsWith('audio/') === true;
}

/** 0:07, 1:00: a recording's length. */
export function formatDuration(ms) {
  const seconds = Math.max(0, Math.round((ms ?? 0) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * The voice message. `src` is the attachment's address with the token (as images load); `me` my id, for the heard
 * set; `mine` whether I sent it (my own never shows the dot).
 */
export function voiceElement(attachment, { src, me, mine, senderName }) {
  const length = formatDuration(attachment.durationMs);
  const seconds = (attachment.durationMs ?? 0) / 1000;
  const unheard = !mine && !heardSet(me).has(attachment.id);
  const audio = el('audio', { className: 'voice-audio', src, preload: 'none' });
  const fill = el('span', { className: 'voice-progress-fill' });
  const dot = unheard ? el('span', { className: 'voice-unheard' }, el('span', { className: 'visually-hidden', text: t('voiceUnheard') })) : null;
  const label = t('playVoice', { name: senderName, length });
  const button = el('button', {
    type: 'button',
    className: 'voice-play',
    'aria-label': label,
    'aria-pressed': 'false',
    on: { click: () => (audio.paused ? start() : audio.pause()) },
  }, icon(PLAY, { size: 20, filled: true }));
  const element = el('div', {
    className: 'voice-message',
    dataset: { attachment: attachment.id, durationMs: String(attachment.durationMs ?? '') },
    style: { width: `${Math.min(MAX_WIDTH_PX, MIN_WIDTH_PX + WIDTH_PER_SECOND_PX * seconds)}px` },
  },
  button,
  el('span', { className: 'voice-progress', 'aria-hidden': 'true' }, fill),
  el('span', { className: 'voice-length', text: length }),
  dot,
  audio);

  function start() {
    if (playing && playing !== audio) playing.pause();
    playing = audio;
    audio.play().catch(() => {}); // a refused play leaves the button as it was (the 'play' event never comes)
    if (dot?.isConnected) {
      markHeard(me, attachment.id);
      dot.remove();
    }
  }
  // A MediaRecorder's WebM has no length in its header (the audio says Infinity), so the measured one is used.
  const total = () => (Number.isFinite(audio.duration) && audio.duration > 0 ? audio.duration : seconds || 1);
  audio.addEventListener('play', () => setPlaying(true));
  audio.addEventListener('pause', () => setPlaying(false));
  audio.addEventListener('ended', () => {
    fill.style.width = '0';
    audio.currentTime = 0;
  });
  audio.addEventListener('timeupdate', () => {
    fill.style.width = `${Math.min(100, (audio.currentTime / total()) * 100)}%`;
  });

  function setPlaying(on) {
    element.classList.toggle('playing', on);
    button.setAttribute('aria-pressed', String(on));
    button.setAttribute('aria-label', on ? t('pauseVoice', { name: senderName, length }) : label);
    button.replaceChildren(on ? icon(PAUSE, { size: 20 }) : icon(PLAY, { size: 20, filled: true }));
  }
  return element;
}

// Which voice messages this account has played, in this browser only: the server does not keep or sync it, so
// another device shows them unheard again. Kept per account, the newest HEARD_LIMIT.
function heardKey(me) {
  return `swiftchat.heardVoice.${me}`;
}

function heardSet(me) {
  try {
    return new Set(JSON.parse(localStorage.getItem(heardKey(me)) ?? '[]'));
  } catch {
    return new Set();
  }
}

function markHeard(me, attachmentID) {
  const heard = [...heardSet(me), attachmentID].slice(-HEARD_LIMIT);
  try {
    localStorage.setItem(heardKey(me), JSON.stringify(heard));
  } catch {
    // Storage full or refused: the dot comes back with the next page load, nothing else is lost.
  }
}
