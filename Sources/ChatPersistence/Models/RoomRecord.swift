import ChatCore
import ChatProtocol
import FluentKit
import Foundation

/// A row of the `rooms` table. The id is a `RoomID`'s text (`lobby`, or a UUID); `direct_key` (the two members'
/// ids in order) makes a direct room unique per pair.
final class RoomRecord: Model, @unchecked Sendable {
    static let schema = "rooms"

    @ID(custom: "id", generatedBy: .user) var id: String?
    @Field(key: "kind") var kind: String
    @OptionalField(key: "name") var name: String?
    @OptionalField(key: "created_by") var createdBy: UUID?
    @OptionalField(key: "direct_key") var directKey: String?
    @OptionalField(key: "avatar_id") var avatar: UUID?
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(_ room: RoomInfo, directKey: String? = nil) {
        self.id = room.id.rawValue
        self.kind = room.kind.rawValue
        self.name = room.name
        self.createdBy = room.createdBy
        self.directKey = directKey
        self.avatar = room.avatar
    }

    func info() throws -> RoomInfo {
        var info = RoomInfo(
            id: RoomID(try self.requireID()), kind: RoomKind(rawValue: self.kind) ?? .group, name: self.name,
            createdBy: self.createdBy)
        // The direct key is the two accounts' ids: who the room is between, whoever is a member now.
        info.avatar = self.avatar
        info.pair = self.directKey?.split(separator: ":").compactMap { UUID(uuidString: String($0)) }
        return info
    }
}
