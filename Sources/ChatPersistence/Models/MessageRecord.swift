import ChatCore
import FluentKit
import Foundation

/// A row of the `messages` table.
///
/// `@unchecked Sendable` as FluentKit's own models are: property wrappers hold the storage, and a record is only
/// touched by the task that loaded or built it.
final class MessageRecord: Model, @unchecked Sendable {
    static let schema = "messages"

    @ID(key: .id) var id: UUID?
    @Field(key: "room") var room: String
    @Field(key: "seq") var seq: Int64
    @Field(key: "sender_name") var senderName: String
    @Field(key: "sender_id") var senderID: UUID
    @Field(key: "text") var text: String
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "client_msg_id") var clientMsgID: String?

    init() {}

    /// The columns the store inserts, in the order of ``values(of:)``.
    static let columns = ["id", "room", "seq", "sender_name", "sender_id", "text", "created_at", "client_msg_id"]

    /// One row's values, bound through the driver's own encoder (the one Fluent reads them back with).
    static func values(of message: StoredMessage) -> [any Encodable & Sendable] {
        [message.id, message.room.rawValue, message.seq, message.sender.name, message.sender.id, message.text, message.date, message.clientMsgID]
    }

    func storedMessage() throws -> StoredMessage {
        StoredMessage(
            room: RoomID(self.room), seq: self.seq, id: try self.requireID(),
            sender: Sender(name: self.senderName, id: self.senderID), text: self.text, date: self.createdAt,
            clientMsgID: self.clientMsgID)
    }
}
