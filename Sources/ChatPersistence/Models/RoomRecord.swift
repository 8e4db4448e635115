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
        Self.info(
            id: try self.requireID(), kind: self.kind, name: self.name, createdBy: self.createdBy,
            directKey: self.directKey, avatar: self.avatar)
    }

    /// The room of a row read without the model, whose columns have the table's names.
    static func info(from row: any EventColumns) throws -> RoomInfo {
        Self.info(
            id: try row.value("id", as: String.self), kind: try row.value("kind", as: String.self),
            name: try row.valueIfPresent("name", as: String.self),
            createdBy: try row.valueIfPresent("created_by", as: UUID.self),
            directKey: try row.valueIfPresent("direct_key", as: String.self),
            avatar: try row.valueIfPresent("avatar_id", as: UUID.self))
    }

    private static func info(
        id: String, kind: String, name: String?, createdBy: UUID?, directKey: String?, avatar: UUID?
    ) -> RoomInfo {
        var info = RoomInfo(id: RoomID(id), kind: RoomKind(rawValue: kind) ?? .group, name: name, createdBy: createdBy)
        // The direct key is the two accounts' ids: who the room is between, whoever is a member now.
        info.avatar = avatar
        info.pair = directKey?.split(separator: ":").compactMap { UUID(uuidString: String($0)) }
        return info
    }
}
