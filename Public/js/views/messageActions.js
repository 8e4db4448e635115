// What can be done to a chat's messages, and the ways in: the message menu (from a message's "…" button, a
// right-click, a long press or the context-menu key) and selecting several messages to copy, forward or recall at once.
import { copyText } from '../clipboard.js';
import { canModerate } from '../moderation.js';
import { describeError, t } from '../strings.js';
import { MessageMenu } from './messageMenu.js';
import { MessageSelection } from './messageSelection.js';
import { messageSummary } from './preview.js';
import { ReportDialog } from './reportDialog.js';
import { ForwardPicker } from './forwardPicker.js';
import { showToast } from './toast.js';
import { setMessagePinned } from './pinMessage.js';

export class MessageActions {
  /**
   * emojiPicker, composer: the chat's. nameOf(person): how the chat names someone ("You" for me).
   * onSelectionChanged(): selecting started, changed or ended.
   */
  constructor(client, roomID, { emojiPicker, composer, nameOf, onSelectionChanged }) {
    Object.assign(this, { client, roomID, nameOf, composer });
    const react = (message, emoji) => client.toggleReaction(roomID, message.seq, emoji);
    this.reportDialog = new ReportDialog(client, roomID, nameOf);
    this.forwardPicker = new ForwardPicker(client, roomID);
    this.menu = new MessageMenu({
      handlers: {
        react,
        moreReactions: (message, opener) => emojiPicker.open(opener, (emoji) => react(message, emoji)),
        reply: (message) => composer.startReply(message),
        copy: (message) => copyText(message.text),
        forward: (message) => this.forwardPicker.open([message.seq], this.lastOpener),
        edit: (message) => composer.startEdit(message),
        select: (message) => this.selection.start(message.seq),
        delete: (message) => this.recall([message.seq]),
        report: (message) => this.reportDialog.open(message, this.lastOpener),
        remove: (message) => this.removeAsModerator(message),
        removePreview: (message) => this.removePreview(message),
        pin: (message) => setMessagePinned(client, roomID, message.seq, true),
        unpin: (message) => setMessagePinned(client, roomID, message.seq, false),
      },
    });
    this.selection = new MessageSelection({
      onChange: () => {
        this.menu.close();
        onSelectionChanged();
      },
      onCopy: (seqs) => this.copySelected(seqs),
      onForward: (seqs) => this.forwardSelected(seqs),
      onRecall: (seqs) => {
        if (this.recall(seqs)) this.selection.end();
      },
      canRecall: (seqs) => seqs.every((seq) => this.isMine(this.message(seq))),
    });
  }

  message(seq) {
    return this.client.store.rooms.get(this.roomID)?.messages.get(seq);
  }

  isMine(message) {
    return message?.sender?.id === this.client.me.id;
  }

  /** Whether I may delete others' messages here: a moderator, the owner, an administrator (§7.3). */
  moderates() {
    return canModerate(this.client.myRank(this.roomID));
  }

  /** What the menu offers depends on: whether the message is mine, and whether I moderate or may pin here. */
  standing(message) {
    return { mine: this.isMine(message), moderates: this.moderates(), mayPin: this.client.mayPinIn(this.roomID) };
  }

  /** The menu of a message, from its "…" button. */
  openFromButton(message, button) {
    this.lastOpener = button;
    this.menu.open(message, { opener: button, ...this.standing(message) });
  }

  /**
   * The menu of a message item: where it was right-clicked (`at`, {x, y}), or beside its bubble (a long press, the
   * context-menu key). While selecting, a press selects instead.
   */
  openMenuFor(item, at = null) {
    const seq = Number(item.dataset.seq);
    const message = this.message(seq);
    if (!message || message.deleted) return;
    if (this.selection.active) {
      this.selection.toggle(seq);
      return;
    }
    if (this.menu.isOpenFor(item)) return; // the context-menu key's keydown and the contextmenu event that follows it
    const anchor = at ? new DOMRect(at.x, at.y, 0, 0) : item.querySelector('.bubble').getBoundingClientRect();
    this.lastOpener = item;
    this.menu.open(message, { opener: item, ...this.standing(message), anchor });
  }

  /** The selected messages as text: "Name: words" a line each, in order. */
  copySelected(seqs) {
    const lines = seqs.map((seq) => this.message(seq)).filter(Boolean)
      .map((message) => `${this.nameOf(message.sender)}: ${messageSummary(message)}`);
    copyText(lines.join('\n'));
    this.selection.end();
  }

  /**
   * Forwards the selected messages (one at a time, in order). Selecting ends as the picker opens, so the focus goes
   * back to the composer, which takes the selection bar's place.
   */
  forwardSelected(seqs) {
    this.selection.end();
    this.forwardPicker.open(seqs, { focus: () => this.composer.focus() });
  }

  /**
   * A moderator deletes someone else's message, once asked (§7.3): the `delete` event shows it removed by a
   * moderator. The server's refusal (someone of my rank or higher wrote it) is said in a note.
   */
  async removeAsModerator(message) {
    if (!window.confirm(t('confirmRemoveMessage'))) return;
    try {
      await this.client.moderation.removeMessage(this.roomID, message.seq);
    } catch (error) {
      showToast(error.code === 'not_allowed' ? t('moderationNotAllowed') : describeError(error), { alert: true });
    }
  }

  /** Removes the link preview of a message of mine; the card goes when the server's `preview` event comes. */
  async removePreview(message) {
    try {
      await this.client.removePreview(this.roomID, message.seq);
    } catch (error) {
      showToast(describeError(error), { alert: true });
    }
  }

  /** Recalls my messages (for everyone), once asked; returns whether it was confirmed. */
  recall(seqs) {
    if (!window.confirm(seqs.length === 1 ? t('confirmDelete') : t('confirmDeleteSelected', { count: seqs.length }))) return false;
    for (const seq of seqs) this.client.deleteMessage(this.roomID, seq);
    return true;
  }
}
