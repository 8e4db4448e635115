import ChatCore
import ChatProtocol
import Foundation

/// Builds a room's summary as one member sees it (PROTOCOL.md §7): for `GET /rooms` and the `joined` frame.
struct RoomSummaries: Sendable {
    let directory: any RoomDirectory
    let accounts: any AccountStore
    let messages: any MessageStore

    func summary(of room: RoomInfo, for me: UUID, lastReadSeq: Int64) async throws -> RoomSummary {
        var peer: UserProfile?
        var peerLastReadSeq: Int64?
        if room.kind == .direct, let other = try await self.directory.members(of: room.id).first(where: { $0 != me }) {
            peer = try await self.accounts.account(id: other)?.profile
            peerLastReadSeq = try await self.directory.lastReadSeq(of: other, in: room.id)
        }
        // The room as of one seq: messages committed between these reads must not count as unread in a summary
        // whose latestSeq precedes them (a client resuming from latestSeq would count them again).
        let latestSeq = try await self.messages.lastSequence(in: room.id)
        let last = try await self.messages.lastMessage(in: room.id, upTo: latestSeq)
        return RoomSummary(
            id: room.id.rawValue, kind: room.kind.rawValue, name: room.name ?? peer?.displayName ?? "", peer: peer,
            lastMessage: last?.payload, latestSeq: latestSeq, lastReadSeq: lastReadSeq,
            unreadCount: try await self.messages.unreadCount(in: room.id, after: lastReadSeq, upTo: latestSeq, for: me),
            peerLastReadSeq: peerLastReadSeq)
    }

    /// The summary of a room `me` belongs to, with my read position; `nil` when I am not a member.
    func summary(of id: RoomID, for me: UUID) async throws -> RoomSummary? {
        guard let membership = try await self.directory.memberships(of: me).first(where: { $0.room.id == id }) else {
            return nil
        }
        return try await self.summary(of: membership.room, for: me, lastReadSeq: membership.lastReadSeq)
    }
}

extension StoredMessage {
    /// The modern protocol's view of a committed event.
    var payload: MessagePayload {
        MessagePayload(
            room: self.room.rawValue, seq: self.seq, id: self.id, sender: self.sender.payload, kind: self.kind.rawValue,
            text: self.text, date: self.date.milliseconds, target: self.target, emoji: self.emoji, added: self.added,
            replyTo: self.replyTo.map { QuotePayload(seq: $0.seq, sender: $0.sender.payload, text: $0.text) },
            attachments: self.attachments.isEmpty ? nil : self.attachments.map(\.payload),
            editedAt: self.editedAt?.milliseconds, deleted: self.deleted ? true : nil,
            reactions: self.reactions.isEmpty
                ? nil : self.reactions.map { ReactionPayload(emoji: $0.emoji, users: $0.users) })
    }
}

extension Sender {
    /// A tutorial sender shows under an id of its own namespace, never an account's (PROTOCOL.md §9.1).
    var payload: SenderPayload {
        guard let via = self.via else { return SenderPayload(id: self.id, name: self.name) }
        return SenderPayload(
            id: TutorialIdentity.modernID(forTutorialSender: self.id), name: self.name, via: via.rawValue)
    }
}

extension Attachment {
    var payload: AttachmentPayload {
        AttachmentPayload(
            id: self.id, name: self.name, contentType: self.contentType, size: self.size, width: self.width,
            height: self.height)
    }
}

extension Date {
    /// Milliseconds since 1970, as every modern date is sent.
    var milliseconds: Int64 { Int64((self.timeIntervalSince1970 * 1000).rounded()) }
}
