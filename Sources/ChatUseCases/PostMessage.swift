import ChatCore
import ChatProtocol
import Foundation

/// Sending a message over HTTP (`POST /api/v1/rooms/{id}/messages`, PROTOCOL.md §9.12): for bots, scripts and `curl`,
/// with the checks, limits and exactly-once rule of the socket's `send`; and forwarding one (§7.6). The message goes through its room like any
/// other, so it is ordered, stored, fanned out, mentioned and pushed alike.
public struct PostMessage: Sendable {
    let access: RoomAccess
    let hub: Hub
    let messages: any MessageStore
    let sendChecks: SendChecks
    let maxMessageBytes: Int

    public init(access: RoomAccess, hub: Hub, messages: any MessageStore, sendChecks: SendChecks, maxMessageBytes: Int)
    {
        self.access = access
        self.hub = hub
        self.messages = messages
        self.sendChecks = sendChecks
        self.maxMessageBytes = maxMessageBytes
    }

    /// A message sent, or the one a retry of the same `clientMsgID` had sent before.
    public enum Outcome: Sendable {
        case created(StoredMessage)
        case repeated(StoredMessage)
    }

    /// Sends `text` to `room` as `sender`, once per `clientMsgID`.
    public func callAsFunction(_ request: PostMessageRequest, to room: RoomID, as sender: Sender) async throws
        -> Outcome
    {
        try Self.check(request.clientMsgID)
        let text = MessageText.removingControlCharacters(request.text)
        guard !text.allSatisfy(\.isWhitespace) else { throw Refusal.invalid(.emptyMessage, "The message is empty.") }
        guard text.utf8.count <= self.maxMessageBytes else {
            throw Refusal(
                kind: .tooLarge, code: .tooLong, message: "A message is at most \(self.maxMessageBytes) bytes.")
        }
        return try await self.commit(
            .message(text: text, replyTo: request.replyTo, attachments: []), to: room, as: sender,
            clientMsgID: request.clientMsgID)
    }

    /// `POST /rooms/{id}/forward` (PROTOCOL.md §7.6): sends message `seq` of another room, which `sender` may read,
    /// again in `room`, with its attachments by reference, marked as forwarded from its author; once per
    /// `clientMsgID`.
    public func forward(_ request: ForwardRequest, to room: RoomID, as sender: Sender) async throws -> Outcome {
        try Self.check(request.clientMsgID)
        let source = RoomID(request.room)
        try await self.access.requireMember(sender.id, of: source)
        let original = try await StoreUnavailable.guarding("the message could not be read") {
            try await self.messages.message(in: source, seq: request.seq)
        }
        guard let original, original.kind == .message, !original.deleted else {
            throw Refusal.invalid(.badTarget, "Message \(request.seq) of that room does not exist, or was deleted.")
        }
        return try await self.commit(
            .forward(
                text: original.text, attachments: original.attachments,
                original: original.forwardedFrom ?? original.sender),
            to: room, as: sender, clientMsgID: request.clientMsgID)
    }

    private static func check(_ clientMsgID: String) throws {
        guard (1...64).contains(clientMsgID.count) else {
            throw Refusal.invalid(.invalidBody, "clientMsgID is 1 to 64 characters.")
        }
    }

    /// Commits `body` in `room` unless a retry of `clientMsgID` had, with the send's checks and limit.
    private func commit(_ body: DraftBody, to room: RoomID, as sender: Sender, clientMsgID: String) async throws
        -> Outcome
    {
        try await self.access.requireSender(sender.id, in: room)
        let original = try await StoreUnavailable.guarding("the message could not be stored") {
            try await self.messages.message(from: sender.id, clientMsgID: clientMsgID)
        }
        if let original { return .repeated(original) }
        if let wait = self.sendChecks.local.attempt(sender.id) {
            throw Refusal.rateLimited(.send, "Too many messages; wait and retry with the same clientMsgID.", wait)
        }
        let draft = MessageDraft(sender: sender, body: body, clientMsgID: clientMsgID)
        do {
            let stored = try await self.hub.room(room).commit(draft)
            return .created(stored)
        } catch RoomRejection.forbidden {
            throw RoomAccessDenied.forbidden
        } catch RoomRejection.muted {
            throw RoomAccessDenied.muted
        } catch RoomRejection.rateLimited(let wait) {
            throw Refusal.rateLimited(.send, "Too many messages; wait and retry with the same clientMsgID.", wait)
        } catch RoomRejection.badTarget {
            throw Refusal.invalid(.badTarget, "replyTo is not a message of this room, or it was deleted.")
        } catch let refusal as RoomRejection {
            throw Refusal.invalid(.badTarget, "The room refused the message: \(refusal).")
        } catch {
            throw StoreUnavailable(
                "the message could not be stored; retry with the same clientMsgID", underlying: error)
        }
    }
}
