// The composer of a chat: the text box (Enter sends, Shift+Enter breaks the line, ↑ in an empty box edits my last
// message), the reply or edit bar, the remaining count near the server's size limit (a message over it is not
// sent, and says why), emoji, files by picker or paste (any type: images show as images, the rest as files), and
// the chat's members to mention after @ (mentionSuggestions.js), and the microphone for voice messages
// (voiceRecorder.js).
// A member a moderator muted (the room's summary says so, or a send was refused for it) sees a note instead.
import { el, icon, ICONS, replaceChildren } from '../dom.js';
import { t } from '../strings.js';
import { measureText } from '../limits.js';
import { messageSummary } from './preview.js';
import { MentionSuggestions } from './mentionSuggestions.js';
import { VoiceRecorder } from './voiceRecorder.js';

const COMPOSER_MAX_HEIGHT_PX = 160;

export class Composer {
  /**
   * onSent(): a message went to the outbox (the list scrolls to the end).
   * lastOwnMessage(): my newest message that can be edited, or null.
   */
  constructor(client, roomID, { emojiPicker, onSent, lastOwnMessage }) {
    Object.assign(this, { client, roomID, emojiPicker, onSent, lastOwnMessage });
    this.store = client.store;
    this.replyTo = null;
    this.editing = null;
    this.element = this.build();
    this.textarea.value = this.client.draft(this.roomID);
    this.updateCount();
    this.unsubscribers = [
      this.store.on('limits', () => this.updateCount()),
      this.store.on('rooms', () => this.renderMuted()),
    ];
    this.renderMuted();
  }

  destroy() {
    this.unsubscribers.forEach((unsubscribe) => unsubscribe());
    this.client.flushDraft(this.roomID); // leaving the chat: its draft goes to the server now, not after the pause
    this.voice.destroy();
  }

  /** Muted in this room (§7.3): the note stands where the text field was. */
  renderMuted() {
    const muted = this.store.rooms.get(this.roomID)?.muted === true;
    if (this.row.hidden === muted) return;
    this.row.hidden = muted;
    this.count.hidden = muted;
    this.mutedNote.hidden = !muted;
  }

  build() {
    this.contextBar = el('div', { className: 'composer-context', hidden: true });
    this.fileInput = el('input', {
      type: 'file',
      multiple: true,
      className: 'visually-hidden',
      tabindex: '-1',
      'aria-hidden': 'true',
      on: { change: () => this.filesPicked() },
    });
    this.textarea = el('textarea', {
      className: 'composer-input',
      id: 'composer-input',
      rows: '1',
      placeholder: t('messagePlaceholder'),
      'aria-label': t('messagePlaceholder'),
      'aria-describedby': 'composer-count',
      on: {
        keydown: (event) => this.keyDown(event),
        input: () => this.input(),
        paste: (event) => this.pasted(event),
      },
    });
    this.count = el('div', { className: 'composer-count', id: 'composer-count', 'aria-live': 'polite' });
    this.emojiButton = el('button', {
      type: 'button',
      className: 'icon-button emoji-button',
      id: 'composer-emoji',
      'aria-label': t('insertEmoji'),
      'aria-haspopup': 'dialog',
      'aria-expanded': 'false',
      on: { click: () => this.emojiPicker.open(this.emojiButton, (emoji) => this.insert(emoji)) },
    }, icon(ICONS.emoji));
    this.mutedNote = el('p', { className: 'composer-muted', id: 'composer-muted', hidden: true, text: t('mutedComposer') });
    this.mentions = new MentionSuggestions(this.client, this.roomID, this.textarea, { onPick: () => this.input() });
    this.voice = new VoiceRecorder({ send: (file, durationMs) => {
      this.onSent();
      this.client.sendVoice(this.roomID, file, durationMs);
    } });
    this.row = el('div', { className: 'composer-row' },
      this.voice.button,
      el('button', {
        type: 'button',
        className: 'icon-button attach-button',
        id: 'attach-file',
        'aria-label': t('attachFile'),
        on: { click: () => this.fileInput.click() },
      }, icon(ICONS.attach)),
      this.fileInput,
      this.textarea,
      this.emojiButton,
      el('button', { type: 'submit', className: 'icon-button send-button', id: 'send-button', 'aria-label': t('send') }, icon(ICONS.send)));
    return el('form', { className: 'composer', id: 'composer', on: { submit: (event) => this.submit(event) } },
      this.mentions.element,
      this.contextBar,
      this.voice.panel,
      this.voice.problem,
      this.row,
      this.mutedNote,
      this.count);
  }

  focus() {
    this.textarea.focus();
  }

  keyDown(event) {
    if (this.mentions.keyDown(event)) return;
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.submit(event);
    } else if (event.key === 'Escape' && (this.replyTo || this.editing)) {
      event.preventDefault();
      this.clearContext();
    } else if (event.key === 'ArrowUp' && !this.textarea.value && !this.editing) {
      const message = this.lastOwnMessage();
      if (message) {
        event.preventDefault();
        this.startEdit(message);
      }
    }
  }

  input() {
    this.mentions.update();
    this.resize();
    this.updateCount();
    if (!this.editing) this.client.saveDraft(this.roomID, this.textarea.value);
    if (this.textarea.value.trim()) this.client.userIsTyping(this.roomID);
  }

  /** Near the limit, how many bytes are left; over it, by how many it is too long. */
  updateCount() {
    const measure = measureText(this.textarea.value, this.client.limits);
    this.count.classList.toggle('over', measure.over);
    this.count.textContent = !measure.showRemaining ? ''
      : measure.over ? t('tooLongBy', { count: -measure.remaining }) : t('bytesLeft', { count: measure.remaining });
    return measure;
  }

  resize() {
    this.textarea.style.height = 'auto';
    // Hidden (scrollHeight 0), the natural height of one row stands.
    if (this.textarea.scrollHeight > 0) {
      this.textarea.style.height = `${Math.min(this.textarea.scrollHeight, COMPOSER_MAX_HEIGHT_PX)}px`;
    }
  }

  insert(text) {
    const { selectionStart, selectionEnd, value } = this.textarea;
    this.textarea.value = value.slice(0, selectionStart) + text + value.slice(selectionEnd);
    this.textarea.selectionStart = this.textarea.selectionEnd = selectionStart + text.length;
    this.textarea.focus();
    this.input();
  }

  submit(event) {
    event.preventDefault();
    const text = this.textarea.value;
    if (!text.trim()) return;
    if (this.updateCount().over) {
      this.count.setAttribute('role', 'alert');
      this.textarea.focus();
      return;
    }
    this.count.removeAttribute('role');
    if (this.editing) {
      if (text !== this.editing.text) this.client.editMessage(this.roomID, this.editing.seq, text);
    } else {
      this.client.sendText(this.roomID, text, this.replyTo);
      this.client.saveDraft(this.roomID, '');
    }
    this.textarea.value = '';
    this.clearContext();
    this.resize();
    this.updateCount();
    this.onSent();
  }

  startReply(message) {
    this.editing = null;
    this.replyTo = message;
    const name = this.store.displayName(message.sender?.id, message.sender?.name ?? '');
    this.showContext(t('replyingTo', { name }), messageSummary(message));
  }

  startEdit(message) {
    this.replyTo = null;
    this.editing = message;
    this.textarea.value = message.text;
    this.showContext(t('editing'), messageSummary(message));
    this.resize();
    this.updateCount();
  }

  /** A message the server refused comes back into the box to be changed (its bubble is gone). */
  putBack(text) {
    this.clearContext();
    this.textarea.value = text;
    this.input();
    this.textarea.focus();
  }

  showContext(title, detail) {
    replaceChildren(this.contextBar,
      el('div', { className: 'composer-context-text' },
        el('span', { className: 'composer-context-title', text: title }),
        el('span', { className: 'composer-context-detail', text: detail })),
      el('button', { type: 'button', className: 'icon-button', 'aria-label': t('cancel'), on: { click: () => this.clearContext() } }, icon(ICONS.close, { size: 18 })));
    this.contextBar.hidden = false;
    this.textarea.focus();
  }

  clearContext() {
    if (this.editing) {
      this.textarea.value = this.client.draft(this.roomID);
      this.resize();
      this.updateCount();
    }
    this.replyTo = null;
    this.editing = null;
    this.contextBar.hidden = true;
    replaceChildren(this.contextBar);
  }

  // MARK: files: picker, paste, drag-and-drop (the chat view hands drops over)

  sendFiles(files) {
    const list = [...files];
    if (list.length === 0) return false;
    this.onSent();
    for (const file of list) this.client.sendFile(this.roomID, file);
    return true;
  }

  filesPicked() {
    this.sendFiles(this.fileInput.files);
    this.fileInput.value = '';
  }

  pasted(event) {
    const files = [...(event.clipboardData?.files ?? [])];
    if (this.sendFiles(files)) event.preventDefault();
  }
}
