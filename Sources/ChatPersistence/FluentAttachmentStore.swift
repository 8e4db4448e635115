import ChatCore
import FluentKit
import Foundation
import SQLKit

/// The ``AttachmentStore`` on a Fluent database. Links between attachments and rooms are written by the message
/// store, in the transaction of the message that carries them.
public struct FluentAttachmentStore: AttachmentStore {
    private let database: any Database

    public init(database: any Database) {
        self.database = database
    }

    public func save(_ stored: StoredAttachment) async throws {
        let record = AttachmentRecord()
        record.id = stored.attachment.id
        record.uploaderID = stored.uploader
        record.sha256 = stored.sha256
        record.name = stored.attachment.name
        record.contentType = stored.attachment.contentType
        record.size = stored.attachment.size
        record.width = stored.attachment.width
        record.height = stored.attachment.height
        record.durationMs = stored.attachment.durationMs
        record.createdAt = Date()
        try await record.create(on: self.database)
    }

    public func attachment(_ id: UUID) async throws -> StoredAttachment? {
        guard let record = try await AttachmentRecord.find(id, on: self.database) else { return nil }
        return StoredAttachment(
            attachment: Attachment(
                id: id, name: record.name, contentType: record.contentType, size: record.size, width: record.width,
                height: record.height, durationMs: record.durationMs),
            uploader: record.uploaderID, sha256: record.sha256)
    }

    public func rooms(of attachment: UUID) async throws -> [RoomID] {
        try await AttachmentRoomRecord.query(on: self.database).filter(\.$attachmentID == attachment).all().map {
            RoomID($0.room)
        }
    }

    /// The sum cast back to a 64-bit integer: PostgreSQL's `SUM` of a `BIGINT` is a `NUMERIC`.
    public func bytesStored(by user: UUID) async throws -> Int64 {
        guard let sql = self.database as? any SQLDatabase else {
            return try await AttachmentRecord.query(on: self.database).filter(\.$uploaderID == user).sum(\.$size) ?? 0
        }
        return try await sql.raw(
            "SELECT CAST(COALESCE(SUM(size), 0) AS BIGINT) AS total FROM attachments WHERE uploader_id = \(bind: user)"
        ).first(decodingColumn: "total", as: Int64.self) ?? 0
    }

    public func deleteUnsent(uploadedBefore cutoff: Date) async throws -> [String] {
        try await self.database.writeTransaction { database in
            guard let sql = database as? any SQLDatabase else { return [] }
            let unsent = try await sql.select().columns("id", "sha256").from(AttachmentRecord.schema)
                .where("created_at", .lessThan, cutoff)
                .where(
                    SQLRaw(
                        "NOT EXISTS (SELECT 1 FROM attachment_rooms WHERE attachment_rooms.attachment_id = attachments.id)"
                    )
                )
                // A picture (PROTOCOL.md §6.5) is carried by its account or room instead.
                .where(SQLRaw("NOT EXISTS (SELECT 1 FROM users WHERE users.avatar_id = attachments.id)"))
                .where(SQLRaw("NOT EXISTS (SELECT 1 FROM rooms WHERE rooms.avatar_id = attachments.id)"))
                .all()
                .map {
                    (
                        id: try $0.decode(column: "id", as: UUID.self),
                        sha256: try $0.decode(column: "sha256", as: String.self)
                    )
                }
            guard !unsent.isEmpty else { return [] }
            try await AttachmentRecord.query(on: database).filter(\.$id ~~ unsent.map(\.id)).delete()
            let names = Set(unsent.map(\.sha256))
            let stillUsed = try await AttachmentRecord.query(on: database).filter(\.$sha256 ~~ Array(names)).all(
                \.$sha256)
            return names.subtracting(stillUsed).sorted()
        }
    }
}
