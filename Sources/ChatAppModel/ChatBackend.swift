import ChatClient
import ChatProtocol
import Foundation

/// What the view models ask of a client. ``ChatClient`` is the real one; tests may pass a fake to script
/// failures and timing.
public protocol ChatBackend: Sendable {
    /// Sends and waits for the ack; the same `clientMsgID` on a retry is stored once.
    func send(_ text: String, to room: String, replyTo: Int64?, attachments: [UUID], clientMsgID: String) async throws
        -> Ack
    /// One page of history, oldest first.
    func history(room: String, before: Int64?, limit: Int) async throws -> HistoryPage
    /// Moves my read position.
    func markRead(room: String, seq: Int64) async
    /// Says I am typing.
    func typing(in room: String) async
    /// My rooms.
    func rooms() async throws -> [RoomSummary]
}

extension ChatClient: ChatBackend {}
