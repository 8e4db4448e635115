import ChatProtocol
import Foundation

extension ChatClient {
    /// A new `clientMsgID`.
    public nonisolated static func makeClientMsgID() -> String {
        UUID().uuidString.lowercased()
    }

    /// Sends `text` to `room` and returns once the server has stored it (PROTOCOL.md §8.3).
    ///
    /// While offline the message waits in the outbox and goes out on reconnection. To retry a send that threw,
    /// pass the same `clientMsgID`: the server stores a message once per id, however often it arrives.
    /// Throws ``ChatClientError/rejected(code:message:)`` when the server refuses it (`too_long`, `forbidden`…),
    /// and ``ChatClientError/stopped`` if ``stop()`` is called first. Cancelling the calling task ends the wait
    /// with `CancellationError` but does not withdraw the message: it is still sent, and stored once.
    ///
    /// `replyTo` is the `seq` of an earlier message in the room; `attachments` are ids from
    /// ``upload(_:name:contentType:)`` (a message with attachments may have empty text, PROTOCOL.md §9.2).
    @discardableResult
    public func send(
        _ text: String, to room: String, replyTo: Int64? = nil, attachments: [UUID] = [],
        clientMsgID: String = ChatClient.makeClientMsgID()
    ) async throws -> Ack {
        try await self.submit(
            .send(
                SendRequest(
                    room: room, clientMsgID: clientMsgID, text: text, replyTo: replyTo,
                    attachments: attachments.isEmpty ? nil : attachments.map(\.uuidString))))
    }

    /// Replaces the text of my message `target` in `room` (§9.2); acknowledged and idempotent like a send.
    @discardableResult
    public func edit(_ target: Int64, in room: String, text: String, clientMsgID: String = ChatClient.makeClientMsgID())
        async throws -> Ack
    {
        try await self.submit(.edit(EditRequest(room: room, clientMsgID: clientMsgID, target: target, text: text)))
    }

    /// Deletes my message `target` in `room`, leaving a tombstone (§9.2).
    @discardableResult
    public func delete(_ target: Int64, in room: String, clientMsgID: String = ChatClient.makeClientMsgID())
        async throws -> Ack
    {
        try await self.submit(.delete(DeleteRequest(room: room, clientMsgID: clientMsgID, target: target)))
    }

    /// Toggles my reaction `emoji` on message `target` in `room` (§9.2): added if absent, removed if present.
    @discardableResult
    public func react(
        _ emoji: String, to target: Int64, in room: String, clientMsgID: String = ChatClient.makeClientMsgID()
    ) async throws -> Ack {
        try await self.submit(.react(ReactRequest(room: room, clientMsgID: clientMsgID, target: target, emoji: emoji)))
    }

    /// Queues any acknowledged frame (send, edit, delete, react) and waits for its ack.
    func submit(_ frame: ClientMessage) async throws -> Ack {
        guard let clientMsgID = frame.clientMsgID else {
            throw ChatClientError.rejected(code: .badFrame, message: "no clientMsgID")
        }
        _ = try self.token()
        // A refused session never reconnects by itself: queueing would wait forever.
        if case .failed(let error) = self.connectionState { throw error }
        let waiter = UUID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if self.outbox.add(frame, clientMsgID: clientMsgID, waiter: continuation, id: waiter), self.socketReady
                {
                    self.write(frame)
                }
                if Task.isCancelled { self.outbox.abandon(clientMsgID, waiter: waiter) }
            }
        } onCancel: {
            Task { await self.abandonWait(for: clientMsgID, waiter: waiter) }
        }
    }

    private func abandonWait(for clientMsgID: String, waiter: UUID) {
        self.outbox.abandon(clientMsgID, waiter: waiter)
    }

    /// Tells the other members that I am typing in `room` (§9.4); call it as the user types, the server
    /// forwards at most one every 2 seconds. Dropped while offline.
    public func typing(in room: String) {
        guard self.socketReady else { return }
        self.write(.typing(TypingRequest(room: room)))
    }

    /// Records that I have read `room` up to `seq` (§8.5); dropped while offline (the next call catches up).
    public func markRead(room: String, seq: Int64) {
        guard self.socketReady else { return }
        self.write(.read(ReadRequest(room: room, seq: seq)))
    }

    /// The number of sends waiting for their ack.
    public var pendingCount: Int { self.outbox.count }

    // MARK: HTTP calls with the session's token

    /// My rooms, most recent activity first.
    public func rooms() async throws -> [RoomSummary] {
        try await self.api.rooms(token: self.token())
    }

    /// Every public channel.
    public func publicRooms() async throws -> [ChannelSummary] {
        try await self.api.publicRooms(token: self.token())
    }

    /// Joins a channel; its events then arrive on the connection (`joined`, §9.6).
    @discardableResult
    public func join(room: String) async throws -> RoomSummary {
        try await self.api.join(room: room, token: self.token())
    }

    /// Leaves a room.
    public func leave(room: String) async throws {
        try await self.api.leave(room: room, token: self.token())
    }

    /// The direct room with `username`, created on first use.
    public func directRoom(with username: String) async throws -> RoomSummary {
        try await self.api.directRoom(with: username, token: self.token())
    }

    /// Searches my rooms (or only `room`) for messages with every word of `query` (§9.7).
    public func search(_ query: String, room: String? = nil, limit: Int = 20) async throws -> [SearchHit] {
        try await self.api.search(query, room: room, limit: limit, token: self.token())
    }

    /// Uploads a file for a later ``send(_:to:replyTo:attachments:clientMsgID:)`` (§9.3).
    public func upload(_ bytes: Data, name: String, contentType: String = "application/octet-stream") async throws
        -> AttachmentPayload
    {
        try await self.api.upload(bytes, name: name, contentType: contentType, token: self.token())
    }

    /// Downloads an attachment's bytes (§9.3).
    public func download(_ attachment: UUID) async throws -> Data {
        try await self.api.download(attachment, token: self.token())
    }

    /// One page of `room`'s history, oldest first; pass the smallest `seq` you have as `before` to page back.
    public func history(room: String, before: Int64? = nil, limit: Int = 50) async throws -> HistoryPage {
        try await self.api.history(room: room, before: before, limit: limit, token: self.token())
    }
}
