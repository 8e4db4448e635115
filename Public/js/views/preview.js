// One line that stands for a message: in the chat list and in reply quotes.
import { t } from '../strings.js';
import { plainText } from '../markdown.js';
import { formatDuration, isVoice } from './voicePlayer.js';

/** The text of a message as one line, or what it carries when it has no text. */
export function messageSummary(message) {
  if (!message) return '';
  if (message.deleted) return t('previewDeleted');
  if (message.text) return plainText(message.text);
  const attachment = message.attachments?.[0];
  if (isVoice(attachment)) return t('previewVoice', { length: formatDuration(attachment.durationMs) });
  if (attachment) return attachment.contentType?.startsWith('image/') ? t('previewImage') : t('previewFile');
  return '';
}

/**
 * "You recalled a message", "Bob recalled a message" (`nameOf(sender)` names others), or "Message removed by a
 * moderator" when this page saw someone else delete it (a history page shows only the tombstone).
 */
export function recallText(message, me, nameOf) {
  if (message.removedByModerator) return t('removedByModerator');
  return message.sender?.id === me.id ? t('recalledByMe') : t('recalledBy', { name: nameOf(message.sender) });
}

/** The preview of a room's last message; in channels and groups it names the sender (`nameOf(sender)`). */
export function messagePreview(room, me, nameOf) {
  const message = room.lastMessage;
  if (!message) return '';
  if (message.deleted) return recallText(message, me, nameOf);
  const summary = messageSummary(message);
  if (room.kind === 'direct') return summary;
  const sender = message.sender?.id === me.id ? t('you') : nameOf(message.sender);
  return sender ? `${sender}: ${summary}` : summary;
}
