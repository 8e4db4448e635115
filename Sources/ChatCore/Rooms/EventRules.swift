import ChatProtocol
import Foundation

/// Why a room refused a draft: one that refers to another message (PROTOCOL.md §9.2), or, on a store that checks
/// senders as it commits (``MessageStore/appendEach(_:isolation:)``), one its sender may not send now.
public enum RoomRejection: Error, Equatable, Sendable {
    /// The target is not a message of this room, or it is deleted.
    case badTarget
    /// Editing or deleting someone else's message.
    case notYours
    /// The sender is not a member of the room (or the room does not exist).
    case forbidden
    /// The sender is a member whom a moderator muted: they may read, not send.
    case muted
    /// The sender's send limit is spent: the next send passes after `retryAfter`.
    case rateLimited(retryAfter: Duration)
}

extension MessageDraft {
    /// The event this draft becomes at `seq`, given the current state of the message it refers to (`nil` when it
    /// refers to none, or to one that does not exist).
    func event(room: RoomID, seq: Int64, date: Date, target: StoredMessage?) throws(RoomRejection) -> StoredMessage {
        var event = StoredMessage(
            room: room, seq: seq, id: UUID(), sender: self.sender, text: "", date: date, clientMsgID: self.clientMsgID)
        if self.body.target != nil {
            guard let target, target.kind == .message, !target.deleted else { throw .badTarget }
        }
        switch self.body {
        case .message(let text, _, let attachments):
            event.text = text
            event.attachments = attachments
            if let target {
                event.replyTo = Quote(
                    seq: target.seq, sender: target.sender, text: String(target.text.prefix(Quote.maxCharacters)))
            }
        case .forward(let text, let attachments, let original):
            event.text = text
            event.attachments = attachments
            event.forwardedFrom = original
        case .edit(let seq, let text):
            guard let target, target.sender.isSameAuthor(as: self.sender) else { throw .notYours }
            event.kind = .edit
            event.target = seq
            event.text = text
        case .delete(let seq):
            guard let target, target.sender.isSameAuthor(as: self.sender) else { throw .notYours }
            event.kind = .delete
            event.target = seq
        case .removal(let seq):
            event.kind = .delete
            event.target = seq
        case .reaction(let seq, let emoji):
            let reacted = target?.reactions.contains { $0.emoji == emoji && $0.users.contains(self.sender.id) } ?? false
            event.kind = .reaction
            event.target = seq
            event.emoji = emoji
            event.added = !reacted
        case .preview(let seq, let preview):
            guard let target, target.sender.isSameAuthor(as: self.sender) else { throw .notYours }
            // Removing a preview the message does not have would store an event that changes nothing.
            guard preview != nil || target.preview != nil else { throw .badTarget }
            event.kind = .preview
            event.target = seq
            event.preview = preview
        case .pin(let seq, let pinned):
            event.kind = .pin
            event.target = seq
            event.added = pinned
        case .rename(let name):
            event.kind = .rename
            event.text = name
        case .membership(let change):
            event.kind = change.kind
            event.member = change.member
            event.text = change.role?.rawValue ?? ""
        }
        return event
    }
}
