import ChatCore
import FluentKit
import Foundation

/// The ``AvatarStore`` on a Fluent database: `users.avatar_id` and `rooms.avatar_id`.
public struct FluentAvatarStore: AvatarStore {
    private let database: any Database

    public init(database: any Database) {
        self.database = database
    }

    public func setAvatar(_ attachment: UUID?, ofAccount id: UUID) async throws {
        try await UserRecord.query(on: self.database).filter(\.$id == id).set(\.$avatar, to: attachment).update()
    }

    public func setAvatar(_ attachment: UUID?, ofRoom id: RoomID) async throws {
        try await RoomRecord.query(on: self.database).filter(\.$id == id.rawValue).set(\.$avatar, to: attachment)
            .update()
    }

    public func isAvatar(_ attachment: UUID) async throws -> Bool {
        async let account = UserRecord.query(on: self.database).filter(\.$avatar == attachment).count()
        async let room = RoomRecord.query(on: self.database).filter(\.$avatar == attachment).count()
        return try await account + room > 0
    }
}
