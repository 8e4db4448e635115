import ChatCore
import ChatProtocol
import Foundation

/// Sending a message over HTTP (`POST /api/v1/rooms/{id}/messages`, PROTOCOL.md §9.12): for bots, scripts and `curl`,
/// with the checks, limits and exactly-once rule of the socket's `send`. The message goes through its room like any
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
        guard (1...64).contains(request.clientMsgID.count) else {
            throw Refusal.invalid(.invalidBody, "clientMsgID is 1 to 64 characters.")
        }
        let text = MessageText.removingControlCharacters(request.text)
        guard !text.allSatisfy(\.isWhitespace) else { throw Refusal.invalid(.emptyMessage, "The message is empty.") }
        guard text.utf8.count <= self.maxMessageBytes else {
            throw Refusal(
                kind: .tooLarge, code: .tooLong, message: "A message is at most \(self.maxMessageBytes) bytes.")
        }
        try await self.access.requireSender(sender.id, in: room)
        let original = try await StoreUnavailable.guarding("the message could not be stored") {
            try await self.messages.message(from: sender.id, clientMsgID: request.clientMsgID)
        }
        if let original { return .repeated(original) }
        if let wait = self.sendChecks.local.attempt(sender.id) {
            throw Refusal.rateLimited(.send, "Too many messages; wait and retry with the same clientMsgID.", wait)
        }
        let draft = MessageDraft(
            sender: sender, body: .message(text: text, replyTo: request.replyTo, attachments: []),
            clientMsgID: request.clientMsgID)
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
