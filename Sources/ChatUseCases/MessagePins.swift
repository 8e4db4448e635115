import ChatCore
import ChatProtocol
import Foundation

/// Pinned messages (PROTOCOL.md §7.8): pinning or unpinning a message for everyone in its room, and the room's list.
///
/// A pin is an event of the room (`pin`), so every member's connections receive it in order, on every node, and
/// resume and history replay it; the message's row keeps when it was pinned, for the list. Who may pin is who may
/// rename the room (``RenameRoom``): in a direct room or a group any member who is not muted, in a channel only its
/// owner and moderators, since anyone can join it.
public struct MessagePins: Sendable {
    /// How many messages a room keeps pinned: a bar at the top of a chat, not a second history.
    public static let limit = 50

    let access: RoomAccess
    let hub: Hub
    let messages: any MessageStore
    let pins: any PinnedMessages
    /// Pins and unpins per account: 20 at once, then one every 3 seconds (each one is an event every member receives).
    private let limiter: AttemptLimiter

    public init(
        access: RoomAccess, hub: Hub, messages: any MessageStore, pins: any PinnedMessages, time: any TimeSource
    ) {
        self.access = access
        self.hub = hub
        self.messages = messages
        self.pins = pins
        self.limiter = AttemptLimiter(time: time, burst: 20, refill: .seconds(3))
    }

    /// The room's pinned messages in their current state, the most recently pinned first.
    public func list(in id: RoomID, for user: UUID) async throws -> [StoredMessage] {
        try await StoreUnavailable.guarding("the pinned messages could not be read") {
            try await self.access.requireMember(user, of: id)
            return try await self.pins.pinnedMessages(in: id, limit: Self.limit)
        }
    }

    /// Pins (`pinned`) or unpins message `seq`. Pinning a pinned message, or unpinning one that is not, changes
    /// nothing and stores nothing.
    public func set(_ pinned: Bool, _ seq: Int64, in id: RoomID, by member: Sender) async throws {
        try await StoreUnavailable.guarding("the message could not be pinned") {
            let room = try await self.access.room(id, for: member.id)
            let standing = try await self.access.requireSender(member.id, in: room.id)
            if room.kind == .channel {
                guard standing.role >= .moderator else {
                    throw Refusal(
                        kind: .notAllowed, code: .notAllowed,
                        message: "Only the channel's owner and moderators may pin its messages.")
                }
            }
            guard let message = try await self.messages.message(in: room.id, seq: seq), message.kind == .message,
                !message.deleted
            else {
                throw Self.noMessage(seq)
            }
            guard message.pinned != pinned else { return }
            if pinned, try await self.pins.pinnedMessages(in: room.id, limit: Self.limit).count >= Self.limit {
                throw Refusal(
                    kind: .conflict, code: .tooManyPins,
                    message: "A room keeps at most \(Self.limit) pinned messages: unpin one first.")
            }
            if let wait = self.limiter.attempt([member.id.uuidString]) {
                throw Refusal.rateLimited(.pin, "You pinned and unpinned messages often lately; try again in", wait)
            }
            do {
                try await self.hub.room(room.id).commit(
                    MessageDraft(sender: member, body: .pin(target: seq, pinned: pinned)))
            } catch RoomRejection.forbidden {
                // Removed from the room on another node since the check: the commit's own check is the last word.
                throw RoomAccessDenied.forbidden
            } catch RoomRejection.badTarget {
                throw Self.noMessage(seq)
            }
        }
    }

    private static func noMessage(_ seq: Int64) -> Refusal {
        Refusal.invalid(.badTarget, "No message \(seq) in this room, or it is deleted.")
    }
}
