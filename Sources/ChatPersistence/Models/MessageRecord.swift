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

    init() {}

    init(_ message: StoredMessage) {
        self.id = message.id
        self.room = message.room.rawValue
        self.seq = message.seq
        self.senderName = message.sender.name
        self.senderID = message.sender.id
        self.text = message.text
        self.createdAt = message.date
    }

    func storedMessage() throws -> StoredMessage {
        StoredMessage(
            room: RoomID(self.room), seq: self.seq, id: try self.requireID(),
            sender: Sender(name: self.senderName, id: self.senderID), text: self.text, date: self.createdAt)
    }
}
