// The composer's microphone (WeChat's 按住说话), recording a voice message with MediaRecorder (§9.3 "Voice messages").
// With a finger: press and hold to record, release to send, slide up (or away) and release to cancel. With a mouse or
// the keyboard: click to start, click again or Enter to send, Escape to cancel. A recording stops and is sent at
// 60 seconds; one shorter than half a second is dropped. The length is measured here, as the server asks for it.
import { el, icon } from '../dom.js';
import { t } from '../strings.js';
import { formatDuration } from './voicePlayer.js';

const MIC = ['M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3z', 'M5.5 11a6.5 6.5 0 0 0 13 0', 'M12 17.5V21'];
const MAX_MS = 60_000;
const MIN_MS = 500;
const CANCEL_SLIDE_PX = 60; // a finger this far above where it pressed cancels on release
const TOUCH_CLICK_MS = 800; // the click a browser sends after a touch is not a second press
const TYPES = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/mp4'];
const EXTENSIONS = { 'audio/webm': 'webm', 'audio/ogg': 'ogg', 'audio/mp4': 'm4a' };

export class VoiceRecorder {
  /** `send(file, durationMs)` uploads and sends a finished recording. */
  constructor({ send }) {
    this.send = send;
    this.recording = null; // {mode: 'click'|'hold', recorder, stream, chunks, startedAt, outcome, ...}
    this.lastTouchAt = 0;
    this.button = el('button', {
      type: 'button',
      className: 'icon-button voice-button',
      id: 'voice-button',
      'aria-label': t('recordVoice'),
      on: {
        click: () => this.clicked(),
        pointerdown: (event) => this.pressed(event),
        contextmenu: (event) => event.preventDefault(), // a long press is recording, not a menu
      },
    }, icon(MIC));
    this.time = el('span', { className: 'voice-recorder-time', id: 'voice-recorder-time', text: '0:00' });
    this.hint = el('span', { className: 'voice-recorder-hint', id: 'voice-recorder-hint', role: 'status' });
    this.cancelButton = el('button', { type: 'button', className: 'link-button', id: 'voice-cancel', text: t('cancel'), on: { click: () => this.finish('cancel') } });
    this.sendButton = el('button', { type: 'button', className: 'button primary', id: 'voice-send', text: t('send'), on: { click: () => this.finish('send') } });
    this.panel = el('div', { className: 'voice-recorder', id: 'voice-recorder', hidden: true },
      el('span', { className: 'voice-recorder-dot', 'aria-hidden': 'true' }),
      this.time,
      this.hint,
      el('span', { className: 'voice-recorder-actions' }, this.cancelButton, this.sendButton));
    this.problem = el('p', { className: 'voice-problem', id: 'voice-problem', role: 'alert' });
    this.keyDown = (event) => this.key(event);
  }

  // MARK: the two ways in

  clicked() {
    if (Date.now() - this.lastTouchAt < TOUCH_CLICK_MS) return;
    if (this.recording) this.finish('send');
    else this.start('click');
  }

  pressed(event) {
    if (event.pointerType !== 'touch' || this.recording) return;
    event.preventDefault();
    this.lastTouchAt = Date.now();
    this.button.setPointerCapture?.(event.pointerId);
    const startY = event.clientY;
    const moved = (move) => this.setSlidAway(startY - move.clientY > CANCEL_SLIDE_PX
      || !this.near(move.clientX, move.clientY));
    const released = (up) => {
      this.lastTouchAt = Date.now();
      this.button.removeEventListener('pointermove', moved);
      this.button.removeEventListener('pointerup', released);
      this.button.removeEventListener('pointercancel', released);
      this.finish(up.type === 'pointerup' && !this.recording?.slidAway ? 'send' : 'cancel');
    };
    this.button.addEventListener('pointermove', moved);
    this.button.addEventListener('pointerup', released);
    this.button.addEventListener('pointercancel', released);
    this.start('hold');
  }

  /** Whether a finger is still over the button or just beside it (sliding sideways off it cancels too). */
  near(x, y) {
    const box = this.button.getBoundingClientRect();
    const slack = CANCEL_SLIDE_PX;
    return x > box.left - slack && x < box.right + slack && y > box.top - slack && y < box.bottom + slack;
  }

  key(event) {
    if (event.key === 'Escape') this.finish('cancel');
    else if (event.key === 'Enter') this.finish('send');
    else return;
    event.preventDefault();
    event.stopPropagation();
  }

  // MARK: recording

  async start(mode) {
    this.problem.textContent = '';
    const recording = { mode, chunks: [], outcome: null, slidAway: false };
    this.recording = recording;
    this.show();
    try {
      if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') throw new Error('unsupported');
      recording.stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      this.reset();
      this.problem.textContent = error?.name === 'NotAllowedError' || error?.name === 'SecurityError'
        ? t('microphoneRefused') : t('microphoneUnavailable');
      return;
    }
    if (recording.outcome) { // released before the microphone answered: too short to keep
      this.stopTracks(recording);
      return;
    }
    const mimeType = TYPES.find((type) => MediaRecorder.isTypeSupported(type));
    recording.recorder = new MediaRecorder(recording.stream, mimeType ? { mimeType } : {});
    recording.recorder.addEventListener('dataavailable', (event) => recording.chunks.push(event.data));
    recording.recorder.addEventListener('stop', () => this.stopped(recording));
    recording.recorder.start();
    recording.startedAt = performance.now();
    recording.ticker = setInterval(() => this.tick(), 250);
    recording.limit = setTimeout(() => this.finish('send'), MAX_MS);
    this.tick();
  }

  /** Ends the recording: `send` keeps it (when long enough), `cancel` drops it. */
  finish(outcome) {
    const recording = this.recording;
    if (!recording || recording.outcome) return;
    recording.outcome = outcome;
    recording.durationMs = recording.startedAt ? Math.min(MAX_MS, performance.now() - recording.startedAt) : 0;
    clearInterval(recording.ticker);
    clearTimeout(recording.limit);
    if (recording.recorder && recording.recorder.state !== 'inactive') recording.recorder.stop();
    this.reset();
    if (outcome === 'send' && recording.durationMs < MIN_MS) this.problem.textContent = t('voiceTooShort');
  }

  stopped(recording) {
    this.stopTracks(recording);
    if (recording.outcome !== 'send' || recording.durationMs < MIN_MS) return;
    const type = (recording.recorder.mimeType || 'audio/webm').split(';')[0];
    const file = new File(recording.chunks, `voice.${EXTENSIONS[type] ?? 'webm'}`, { type });
    this.send(file, Math.round(recording.durationMs));
  }

  stopTracks(recording) {
    recording.stream?.getTracks().forEach((track) => track.stop());
  }

  // MARK: what shows while recording

  show() {
    const hold = this.recording.mode === 'hold';
    this.panel.hidden = false;
    this.panel.classList.toggle('holding', hold);
    this.panel.classList.remove('slid-away');
    this.cancelButton.hidden = hold;
    this.sendButton.hidden = hold;
    this.time.textContent = '0:00';
    this.hint.textContent = hold ? `${t('releaseToSend')}\n${t('slideUpToCancel')}` : t('clickToSendVoice');
    this.button.classList.add('recording');
    this.button.setAttribute('aria-label', t('sendVoice'));
    if (!hold) document.addEventListener('keydown', this.keyDown, true);
  }

  setSlidAway(slidAway) {
    if (!this.recording || this.recording.slidAway === slidAway) return;
    this.recording.slidAway = slidAway;
    this.panel.classList.toggle('slid-away', slidAway);
    this.hint.textContent = slidAway ? t('releaseToCancel') : `${t('releaseToSend')}\n${t('slideUpToCancel')}`;
  }

  tick() {
    this.time.textContent = formatDuration(Math.floor((performance.now() - (this.recording?.startedAt ?? performance.now())) / 1000) * 1000);
  }

  reset() {
    this.recording = null;
    this.panel.hidden = true;
    this.button.classList.remove('recording');
    this.button.setAttribute('aria-label', t('recordVoice'));
    document.removeEventListener('keydown', this.keyDown, true);
  }

  /** Leaving the chat drops a recording under way. */
  destroy() {
    this.finish('cancel');
  }
}
