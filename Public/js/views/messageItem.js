// The elements of one entry in a chat: a day separator, a message (mine or theirs), a message still in the outbox,
// and an image still uploading. Built from data alone; the chat view decides when to rebuild them.
import { el, icon, ICONS } from '../dom.js';
import { errorText, t } from '../strings.js';
import { avatarElement, profileAvatar, initialsFromName, colorFromId } from '../avatar.js';
import { formatClock, formatDayLabel } from '../time.js';
import { messageSummary } from './preview.js';
import { markdownNodes } from '../markdown.js';
import { markMentions } from '../mentions.js';
import { linkPreviewCard } from './linkPreview.js';
import { isVoice, voiceElement } from './voicePlayer.js';

const MAX_IMAGE_SIDE = 240;
// The class of each kind of centred line (the membership changes share `member-line`).
const SYSTEM_LINE_CLASSES = { rename: 'rename-line', pin: 'pin-line' };

export function daySeparator(date) {
  return el('div', { className: 'day-separator', role: 'separator' }, el('span', { text: formatDayLabel(date) }));
}

/**
 * A rename of the room, a change of its members or a pin, as a centred line of its own (`text` says who did what; names
 * are user data and go in as text, like everything else).
 */
export function systemLine(event, text) {
  return el('div', {
    className: `system-line ${SYSTEM_LINE_CLASSES[event.kind] ?? 'member-line'}`,
    dataset: { eventSeq: String(event.seq), kind: event.kind },
  }, el('span', { text }));
}

/**
 * A recalled (deleted) message, as WeChat shows one: a centred grey line, "Bob recalled a message". It keeps the
 * message's seq, so reading past it still counts.
 */
export function recallLine(message, text) {
  return el('div', { className: 'system-line recall-line', dataset: { seq: String(message.seq) } }, el('span', { text }));
}

/** Where the messages I have not read yet begin (shown while the chat stays open). */
export function unreadDivider() {
  return el('div', { className: 'unread-divider', id: 'unread-divider', role: 'separator' }, el('span', { text: t('unreadMessages') }));
}

/**
 * A message (not a recalled one: see recallLine). `context` gives: mine, showSender, showRead, me (my id), senderProfile (or null), nameOf(person),
 * attachmentURL(id), changes (outbox entries editing, deleting or reacting to it), selected (null when not
 * selecting messages, otherwise whether this one is), and the handlers
 * onActions(message, button), onReact(message, emoji), onOpenImage(src, alt), onRetry(clientMsgID), onDiscard(clientMsgID).
 */
export function messageElement(message, context) {
  const { mine } = context;
  const body = el('div', { className: 'message-body' },
    context.showSender && el('div', { className: 'message-sender' },
      el('span', { className: 'sender-name', text: context.nameOf(message.sender) }),
      senderBadge(message, context)),
    el('div', { className: 'message-row' },
      bubble(message, context),
      el('button', {
        type: 'button',
        className: 'message-actions-button',
        'aria-label': t('messageActions'),
        'aria-haspopup': 'menu',
        on: { click: (event) => context.onActions(message, event.currentTarget) },
      }, icon(ICONS.more, { size: 18 }))),
    reactionsElement(message, context),
    (context.changes ?? []).map((entry) => changeStatus(entry, context)),
    context.showRead && el('div', { className: 'message-status read-receipt', text: t('read') }));
  return el('div', {
    className: `message ${mine ? 'mine' : 'theirs'}${context.selected ? ' selected' : ''}`,
    dataset: { seq: String(message.seq), ...(message.clientMsgID ? { clientMsgId: message.clientMsgID } : {}) },
    tabindex: '-1',
  },
  typeof context.selected === 'boolean' && el('input', {
    type: 'checkbox',
    className: 'select-box',
    checked: context.selected,
    'aria-label': t('selectMessage', { name: context.nameOf(message.sender), time: formatClock(message.date) }),
  }),
  !mine && senderAvatar(message, context),
  body);
}

// Refusals after which sending the same text again can never succeed: Retry is not offered, Edit is.
const FINAL_SEND_ERRORS = new Set(['too_long', 'empty_message']);

/**
 * A message of mine that the server has not acknowledged yet (or refused, with its reason and an Edit that puts
 * the text back in the composer). While offline it says that it waits for the connection.
 */
export function pendingElement(entry, context) {
  const failed = entry.state === 'failed';
  const message = {
    text: entry.frame.text ?? '',
    attachments: entry.meta?.attachments,
    replyTo: entry.meta?.replyTo,
    date: entry.createdAt,
  };
  const reason = entry.error && entry.error !== 'timeout' ? refusalText(entry.error) : null;
  const status = deliveryStatus(failed, () => context.onRetry(entry.clientMsgID), () => context.onDiscard(entry.clientMsgID), {
    pendingText: context.online ? t('pending') : t('waitingForConnection'),
    failedText: reason ? `${t('failed')}: ${reason}` : t('failed'),
    canRetry: !FINAL_SEND_ERRORS.has(entry.error),
    onEdit: message.text ? () => context.onEditFailed(entry) : null,
  });
  return el('div', {
    className: `message mine ${failed ? 'failed' : 'pending'}`,
    dataset: { clientMsgId: entry.clientMsgID },
    tabindex: '-1',
  },
  el('div', { className: 'message-body' },
    el('div', { className: 'message-row' }, bubble(message, context)),
    status));
}

/** A file being uploaded before it can be sent; an image shows from the local file. */
export function uploadElement(upload, context) {
  const failed = upload.state === 'failed';
  const preview = upload.previewURL
    ? el('div', { className: 'bubble image-only' }, el('img', { src: upload.previewURL, alt: upload.file.name || t('previewImage'), className: 'attachment-image' }))
    : el('div', { className: 'bubble' }, fileCard({ name: upload.file.name, size: upload.file.size }, null));
  return el('div', { className: `message mine ${failed ? 'failed' : 'pending'}`, dataset: { upload: upload.localID }, tabindex: '-1' },
    el('div', { className: 'message-body' },
      el('div', { className: 'message-row' }, preview),
      deliveryStatus(failed, () => context.onRetryUpload(upload.localID), () => context.onDiscardUpload(upload.localID),
        failed ? { failedText: uploadErrorText(upload.error) } : {})));
}

/** Why an upload failed: the server's reason (too large, not an image) when it gave one. */
function uploadErrorText(code) {
  return code && code !== 'unreachable' && code !== 'internal' ? errorText(code) : t('uploadFailed');
}

/** An edit, delete or reaction of a message that the server has not acknowledged yet (or refused). */
function changeStatus(entry, context) {
  const failed = entry.state === 'failed';
  const status = deliveryStatus(failed, () => context.onRetry(entry.clientMsgID), () => context.onDiscard(entry.clientMsgID), {
    pendingText: t(`changePending_${entry.frame.type}`),
    failedText: failedChangeText(entry),
  });
  status.classList.add('change-status');
  Object.assign(status.dataset, { clientMsgId: entry.clientMsgID, change: entry.frame.type });
  return status;
}

/** What did not happen, and why when the server said (a timeout has no reason worth showing). */
function failedChangeText(entry) {
  const what = t(`changeFailed_${entry.frame.type}`);
  return entry.error && entry.error !== 'timeout' ? `${what} ${refusalText(entry.error)}` : what;
}

/** Why the server refused a frame: its error code's message, or that a moderator muted me (`muted`, §8.6). */
function refusalText(error) {
  return error === 'muted' ? t('mutedComposer') : errorText(error);
}

function deliveryStatus(failed, onRetry, onDiscard, { pendingText = t('pending'), failedText = t('failed'), canRetry = true, onEdit = null } = {}) {
  if (!failed) return el('div', { className: 'message-status', text: pendingText });
  return el('div', { className: 'message-status failed-status', role: 'alert' },
    el('span', { className: 'failed-reason', text: failedText }),
    canRetry && el('button', { type: 'button', className: 'link-button retry-button', text: t('retry'), on: { click: onRetry } }),
    onEdit && el('button', { type: 'button', className: 'link-button edit-button', text: t('edit'), on: { click: onEdit } }),
    el('button', { type: 'button', className: 'link-button discard-button', text: t('discard'), on: { click: onDiscard } }));
}

/**
 * What sent a message when it is not a person: a bot account (its profile says `bot`) or a room's incoming webhook
 * (`via`, §9.14). A word beside the name, not a colour only, so everyone can tell (null for a person).
 */
function senderBadge(message, context) {
  const kind = message.sender?.via === 'webhook' ? 'webhook' : context.senderProfile?.bot === true ? 'bot' : null;
  return kind && el('span', { className: `sender-badge sender-badge-${kind}`, text: t(`badge_${kind}`) });
}

function senderAvatar(message, context) {
  const profile = context.senderProfile;
  const data = profile
    ? profileAvatar(profile)
    : { initials: initialsFromName(message.sender?.name), color: colorFromId(message.sender?.id ?? ''), label: message.sender?.name };
  return avatarElement(data, { size: 'small' });
}

/**
 * The bubble: who wrote a forwarded message first, quote, attachments, text (its real @mentions marked: context.whomMentioned), link preview and time.
 * A message from someone else that mentions me (by name or @all: context.mentionsMe) stands out, and says so to a
 * screen reader.
 */
function bubble(message, context) {
  const attachments = message.attachments ?? [];
  const text = message.text && el('div', { className: 'message-text' }, markdownNodes(message.text));
  if (text && context.whomMentioned) markMentions(text, (name) => context.whomMentioned(message, name));
  const mentionsMe = !context.mine && context.mentionsMe?.(message) === true;
  const imageOnly = !message.text && attachments.length && !attachments.some(isVoice);
  return el('div', { className: `bubble${imageOnly ? ' image-only' : ''}${mentionsMe ? ' mentions-me' : ''}` },
    mentionsMe && el('span', { className: 'visually-hidden', text: t('mentionsYou') }),
    message.forwardedFrom && el('div', {
      className: 'forwarded-mark', text: t('forwardedFrom', { name: context.nameOf(message.forwardedFrom) }),
    }),
    message.replyTo && quote(message.replyTo, context),
    attachments.map((attachment) => attachmentElement(attachment, message, context)),
    text,
    linkPreviewCard(message, context),
    el('div', { className: 'message-meta' },
      message.editedAt && el('span', { className: 'edited-mark', text: t('edited') }),
      el('time', { text: formatClock(message.date) })));
}

/** The quoted message; a click shows the original (loading older pages until it is there). */
function quote(replyTo, context) {
  const sender = context.nameOf(replyTo.sender);
  return el('button', {
    type: 'button',
    className: 'quote',
    'aria-label': t('showQuoted', { name: sender }),
    on: { click: () => context.onJumpTo?.(replyTo.seq) },
  },
  el('span', { className: 'quote-sender', text: sender }),
  el('span', { className: 'quote-text', text: replyTo.text ? messageSummary(replyTo) : t('previewDeleted') }));
}

/** A file: its name and size, and a download link (none while it uploads). */
function fileCard({ name, size }, href) {
  const shownName = name || t('fileFallbackName');
  return el('div', { className: 'file-card' },
    icon(ICONS.file, { size: 28 }),
    el('span', { className: 'file-text' },
      el('span', { className: 'file-name', text: shownName }),
      el('span', { className: 'file-size', text: formatBytes(size) })),
    href && el('a', {
      className: 'attachment-file',
      href,
      download: shownName,
      'aria-label': t('downloadFile', { name: shownName }),
    }, icon(ICONS.download, { size: 20 })));
}

/** 532 B, 12.4 KB, 3.1 MB. */
export function formatBytes(size) {
  if (!Number.isFinite(size)) return '';
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}

function attachmentElement(attachment, message, context) {
  const src = context.attachmentURL(attachment.id);
  if (isVoice(attachment)) {
    const senderName = message.sender ? context.nameOf(message.sender) : t('you');
    return voiceElement(attachment, { src, me: context.me, mine: context.mine !== false, senderName }); // pending: mine
  }
  if (!attachment.contentType?.startsWith('image/')) return fileCard(attachment, src);
  const { width, height } = fitImage(attachment.width, attachment.height);
  const alt = t('imageFrom', { name: message.sender ? context.nameOf(message.sender) : t('you') });
  const image = el('img', { src, alt, className: 'attachment-image', width: String(width), height: String(height), loading: 'lazy' });
  image.addEventListener('load', () => context.onImageLoaded());
  return el('button', {
    type: 'button',
    className: 'image-button',
    'aria-label': t('image', { name: attachment.name || '' }).trim(),
    on: { click: () => context.onOpenImage(src, alt) },
  }, image);
}

/** The size an image is shown at in a bubble, known before it loads so nothing jumps when it does. */
function fitImage(width, height) {
  if (!width || !height) return { width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE };
  const scale = Math.min(1, MAX_IMAGE_SIDE / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

function reactionsElement(message, context) {
  const reactions = message.reactions ?? [];
  if (reactions.length === 0) return null;
  return el('div', { className: 'reactions' }, reactions.map((reaction) => {
    const mine = reaction.users.includes(context.me);
    // Who reacted: in the tooltip (hover, or a long press on a phone) and in the accessible name.
    const who = t('reactedBy', { emoji: reaction.emoji, names: reaction.users.map((id) => context.reactorName(id)).join(', ') });
    return el('button', {
      type: 'button',
      className: `reaction${mine ? ' mine' : ''}`,
      'aria-pressed': String(mine),
      'aria-label': who,
      title: who,
      text: t('reactionBy', { emoji: reaction.emoji, count: reaction.users.length }),
      on: {
        click: () => context.onReact(message, reaction.emoji),
        contextmenu: (event) => showWhoReacted(event, who), // a long press on a touch screen
      },
    });
  }));
}

const WHO_REACTED_MS = 2_500;

/** Shows who reacted beside the reaction for a moment (touch screens have no hover for the tooltip). */
function showWhoReacted(event, who) {
  event.preventDefault();
  const reactions = event.currentTarget.parentElement;
  reactions.querySelector('.reaction-who')?.remove();
  const note = el('span', { className: 'reaction-who', role: 'status', text: who });
  reactions.append(note);
  setTimeout(() => note.remove(), WHO_REACTED_MS);
}
