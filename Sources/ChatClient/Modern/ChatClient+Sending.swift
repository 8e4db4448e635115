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
    /// and ``ChatClientError/stopped`` if ``stop()`` is called first. Cancelling the calling task does not
    /// withdraw a queued message.
    @discardableResult
    public func send(_ text: String, to room: String, clientMsgID: String = ChatClient.makeClientMsgID()) async throws -> Ack {
        try await self.submit(ClientFrame(type: "send", room: room, clientMsgID: clientMsgID, text: text))
    }

    /// Queues any acknowledged frame (send, edit, delete, react) and waits for its ack.
    func submit(_ frame: ClientFrame) async throws -> Ack {
        guard let clientMsgID = frame.clientMsgID else { throw ChatClientError.rejected(code: "bad_frame", message: "no clientMsgID") }
        _ = try self.token()
        return try await withCheckedThrowingContinuation { waiter in
            if self.outbox.add(frame, clientMsgID: clientMsgID, waiter: waiter), self.socketReady {
                self.write(frame)
            }
        }
    }

    /// Tells the other members that I am typing in `room` (§9.4); call it as the user types, the server
    /// forwards at most one every 2 seconds. Dropped while offline.
    public func typing(in room: String) {
        guard self.socketReady else { return }
        self.write(ClientFrame(type: "typing", room: room))
    }

    /// Records that I have read `room` up to `seq` (§8.5); dropped while offline (the next call catches up).
    public func markRead(room: String, seq: Int64) {
        guard self.socketReady else { return }
        self.write(ClientFrame(type: "read", room: room, seq: seq))
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

    /// One page of `room`'s history, oldest first; pass the smallest `seq` you have as `before` to page back.
    public func history(room: String, before: Int64? = nil, limit: Int = 50) async throws -> HistoryPage {
        try await self.api.history(room: room, before: before, limit: limit, token: self.token())
    }
}
