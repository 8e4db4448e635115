import ChatCore
import ChatProtocol
import ChatUseCases
import Foundation
import Metrics
import NIOCore

/// The frames that become events of a room: `send`, `edit`, `delete`, `react` (PROTOCOL.md §8.3, §9.2). Each is
/// checked here, then sequenced and committed by the room, which checks what depends on other messages.
extension ModernWorker {
    func sendMessage(_ frame: SendRequest) async {
        guard let clientMsgID = self.clientMsgID(frame.clientMsgID, of: .send) else { return }
        let raw = frame.room
        let text = MessageText.removingControlCharacters(frame.text ?? "")
        let ids = frame.attachments ?? []
        guard ids.count <= AttachmentRules.maxPerMessage else {
            return self.reply(
                ErrorFrame(
                    code: .badAttachment,
                    message: "A message carries at most \(AttachmentRules.maxPerMessage) attachments.", ref: clientMsgID
                ))
        }
        if ids.isEmpty {
            guard self.checkText(text, ref: clientMsgID) else { return }
        } else if !text.isEmpty {
            guard text.utf8.count <= self.context.maxMessageBytes else {
                return self.reply(
                    ErrorFrame(
                        code: .tooLong, message: "A message is at most \(self.context.maxMessageBytes) bytes.",
                        ref: clientMsgID))
            }
        }
        let roomID = RoomID(raw)
        guard let room = await self.roomToSend(roomID, target: frame.replyTo, ref: clientMsgID) else { return }
        var attachments: [Attachment] = []
        for id in ids {
            let readable: Attachment?
            do {
                readable = try await self.readableAttachment(id)
            } catch {
                return self.unavailable("attachment could not be read", room: roomID, error: error, ref: clientMsgID)
            }
            guard let attachment = readable else {
                return self.reply(
                    ErrorFrame(
                        code: .badAttachment, message: "Attachment \(id) does not exist or is not yours to send.",
                        ref: clientMsgID))
            }
            attachments.append(attachment)
        }
        await self.submit(
            .message(text: text, replyTo: frame.replyTo, attachments: attachments), to: room, clientMsgID: clientMsgID)
    }

    func edit(_ frame: EditRequest) async {
        guard let clientMsgID = self.clientMsgID(frame.clientMsgID, of: .edit) else { return }
        let text = MessageText.removingControlCharacters(frame.text)
        guard self.checkText(text, ref: clientMsgID) else { return }
        guard let room = await self.roomToSend(RoomID(frame.room), target: frame.target, ref: clientMsgID) else {
            return
        }
        await self.submit(.edit(target: frame.target, text: text), to: room, clientMsgID: clientMsgID)
    }

    func delete(_ frame: DeleteRequest) async {
        guard let clientMsgID = self.clientMsgID(frame.clientMsgID, of: .delete) else { return }
        guard let room = await self.roomToSend(RoomID(frame.room), target: frame.target, ref: clientMsgID) else {
            return
        }
        await self.submit(.delete(target: frame.target), to: room, clientMsgID: clientMsgID)
    }

    func react(_ frame: ReactRequest) async {
        guard let clientMsgID = self.clientMsgID(frame.clientMsgID, of: .react) else { return }
        guard let emoji = frame.emoji, ReactionRules.isSingleEmoji(emoji) else {
            return self.reply(
                ErrorFrame(code: .badEmoji, message: "A reaction is exactly one emoji.", ref: clientMsgID))
        }
        guard let room = await self.roomToSend(RoomID(frame.room), target: frame.target, ref: clientMsgID) else {
            return
        }
        await self.submit(.reaction(target: frame.target, emoji: emoji), to: room, clientMsgID: clientMsgID)
    }

    /// `read {room, seq}`: moves my last-read seq forward and tells every member, my other devices included.
    func markRead(_ frame: ReadRequest) async {
        let ref = frame.ref ?? frame.room
        guard frame.seq >= 0 else {
            return self.reply(ErrorFrame(code: .badFrame, message: "seq is 0 or more.", ref: ref))
        }
        let id = RoomID(frame.room)
        do {
            try await self.context.reads.markRead(self.account.id, in: id, upTo: frame.seq)
        } catch {
            switch error {
            case .pastEnd(let latest):
                self.reply(ErrorFrame(code: .badSeq, message: "The room ends at seq \(latest).", ref: ref))
            case .stale(let stored):
                self.reply(
                    ErrorFrame(
                        code: .staleRead, message: "Already read up to seq \(stored); read only moves forward.",
                        ref: ref))
            case .denied(let denied):
                self.refused(denied, room: id, ref: ref)
            case .unavailable(let failure):
                self.unavailable("read position could not be saved", room: id, error: failure, ref: ref)
            }
        }
    }

    /// `typing {room}`: the room forwards it to the other members, throttled.
    func typing(_ frame: TypingRequest) async {
        let raw = frame.room
        let id = RoomID(raw)
        guard await self.maySend(id, ref: frame.ref ?? raw), let room = await self.openRoom(id, ref: frame.ref ?? raw)
        else { return }
        room.typing(self.account.sender)
    }

    /// The frame's `clientMsgID`, or `nil` after answering `bad_frame` when it is not 1 to 64 characters.
    private func clientMsgID(_ clientMsgID: String, of kind: ClientMessage.Kind) -> String? {
        guard (1...64).contains(clientMsgID.count) else {
            self.reply(
                ErrorFrame(
                    code: .badFrame, message: "\(kind.rawValue) needs a clientMsgID of 1 to 64 characters.", ref: nil))
            return nil
        }
        return clientMsgID
    }

    /// Whether a message text may be sent; answers the error when not.
    private func checkText(_ text: String, ref: String) -> Bool {
        guard !text.allSatisfy(\.isWhitespace) else {
            self.reply(ErrorFrame(code: .emptyMessage, message: "The message is empty.", ref: ref))
            return false
        }
        guard text.utf8.count <= self.context.maxMessageBytes else {
            self.reply(
                ErrorFrame(
                    code: .tooLong, message: "A message is at most \(self.context.maxMessageBytes) bytes.", ref: ref))
            return false
        }
        return true
    }

    /// An attachment I may send (one I uploaded, or one I can already read); `nil` when it is not one. Throws
    /// when the database failed, which is not the sender's mistake.
    private func readableAttachment(_ raw: String) async throws -> Attachment? {
        try await self.context.attachments.sendable(raw, by: self.account.id)
    }

    /// The room a draft goes to, once the account may send there, a member not muted (``SendChecks``): asked of the
    /// directory first,
    /// unless the commit checks it, this connection follows the room already, and the draft refers to no message.
    /// A room the connection does not follow is asked about even then, so that no one opens a room they do not
    /// belong to; and so is one that a draft's target is read from (a reply, edit, delete or reaction), so that a
    /// member removed a moment ago learns nothing of the messages since from `bad_target` or `not_yours`.
    private func roomToSend(_ id: RoomID, target: Int64?, ref: String) async -> Room? {
        if self.context.sendChecks.atCommit, target == nil, let room = self.followedRoom(id) { return room }
        guard await self.maySend(id, ref: ref) else { return nil }
        return await self.openRoom(id, ref: ref)
    }

    /// Hands a checked draft to its room (after this node's send limit) and answers with the ack or the error.
    private func submit(_ body: DraftBody, to room: Room, clientMsgID: String) async {
        let received = ContinuousClock.now
        let metrics = self.context.metrics
        if let wait = self.context.sendChecks.local.attempt(self.account.id) {
            metrics.refused(.send)
            return self.reply(Self.rateLimited(wait, ref: clientMsgID))
        }
        let connection = self.connection
        // What I wrote, I have read: the message moves my read position in its own transaction, and every member,
        // my other devices included, gets its receipt with it (StoredMessage.marksRead).
        let draft = MessageDraft(
            sender: self.account.sender, body: body, clientMsgID: clientMsgID)
        room.submit(draft) { result in
            connection.eventLoop.execute {
                let answer: any Encodable =
                    switch result {
                    case .success(let message):
                        AckFrame(
                            clientMsgID: clientMsgID, room: message.room.rawValue, seq: message.seq, id: message.id,
                            date: message.date.milliseconds)
                    case .failure(RoomRejection.badTarget):
                        ErrorFrame(
                            code: .badTarget, message: "The target is not a message of this room, or it was deleted.",
                            ref: clientMsgID)
                    case .failure(RoomRejection.notYours):
                        ErrorFrame(
                            code: .notYours, message: "Only the sender may edit or delete a message.", ref: clientMsgID)
                    case .failure(RoomRejection.forbidden):
                        Self.forbidden(clientMsgID)
                    case .failure(RoomRejection.muted):
                        Self.muted(clientMsgID)
                    case .failure(RoomRejection.rateLimited(let wait)):
                        Self.rateLimited(wait, ref: clientMsgID)
                    case .failure:
                        ErrorFrame(
                            code: .unavailable,
                            message: "The message could not be stored; retry with the same clientMsgID.",
                            ref: clientMsgID)
                    }
                ModernSession.send(answer, on: connection)
                switch result {
                case .success: metrics.ackLatency.record(duration: ContinuousClock.now - received)
                case .failure(RoomRejection.rateLimited): metrics.refused(.send)
                case .failure: break
                }
            }
        }
    }

    /// The `rate_limited` error of a send refused for `wait`.
    private static func rateLimited(_ wait: Duration, ref: String) -> ErrorFrame {
        let seconds = Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
        return ErrorFrame(
            code: .rateLimited, message: "Too many messages; wait \(String(format: "%.1f", seconds)) s.", ref: ref)
    }
}
