import FluentKit
import Foundation

/// A row of `reactions`: one user's emoji on one message.
final class ReactionRecord: Model, @unchecked Sendable {
    static let schema = "reactions"

    @ID(key: .id) var id: UUID?
    @Field(key: "room") var room: String
    @Field(key: "target_seq") var targetSeq: Int64
    @Field(key: "user_id") var userID: UUID
    @Field(key: "emoji") var emoji: String
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

/// A row of `attachments`: one upload. The bytes live in a file named by `sha256`, shared by equal uploads.
final class AttachmentRecord: Model, @unchecked Sendable {
    static let schema = "attachments"

    @ID(key: .id) var id: UUID?
    @Field(key: "uploader_id") var uploaderID: UUID
    @Field(key: "sha256") var sha256: String
    @Field(key: "name") var name: String
    @Field(key: "content_type") var contentType: String
    @Field(key: "size") var size: Int64
    @OptionalField(key: "width") var width: Int?
    @OptionalField(key: "height") var height: Int?
    @OptionalField(key: "duration_ms") var durationMs: Int?
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

/// A row of `attachment_rooms`: an attachment was sent in a room, so that room's members may read it.
final class AttachmentRoomRecord: Model, @unchecked Sendable {
    static let schema = "attachment_rooms"

    @ID(key: .id) var id: UUID?
    @Field(key: "attachment_id") var attachmentID: UUID
    @Field(key: "room") var room: String

    init() {}
}

/// A row of `mentions`: a message that mentions an account (`userID` `nil`: every member, by `@all`).
final class MentionRecord: Model, @unchecked Sendable {
    static let schema = "mentions"

    @ID(custom: "id", generatedBy: .database) var id: Int64?
    @Field(key: "room") var room: String
    @Field(key: "seq") var seq: Int64
    @OptionalField(key: "user_id") var userID: UUID?
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
