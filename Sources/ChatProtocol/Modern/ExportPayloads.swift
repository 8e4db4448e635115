import Foundation

/// The start of `GET /api/v1/me/export` (PROTOCOL.md §10.6), everything but the messages, which follow it in the
/// same JSON object as the array `messages`.
public struct AccountExportHead: Codable, Sendable, Equatable {
    /// `swiftchat-export-1`.
    public var format: String
    /// Milliseconds since 1970.
    public var exportedAt: Int64
    public var profile: UserProfile
    public var rooms: [ExportedRoom]

    public init(format: String, exportedAt: Int64, profile: UserProfile, rooms: [ExportedRoom]) {
        self.format = format
        self.exportedAt = exportedAt
        self.profile = profile
        self.rooms = rooms
    }
}

/// A room of the exported account.
public struct ExportedRoom: Codable, Sendable, Equatable {
    public var id: String
    public var kind: WireKind<RoomKind>
    public var name: String?

    public init(id: String, kind: RoomKind, name: String?) {
        self.id = id
        self.kind = .known(kind)
        self.name = name
    }
}

/// A message the exported account sent, as it reads now.
public struct ExportedMessage: Codable, Sendable, Equatable {
    public var room: String
    public var seq: Int64
    /// Milliseconds since 1970.
    public var date: Int64
    public var text: String
    public var editedAt: Int64?
    public var attachments: [AttachmentPayload]?

    public init(
        room: String, seq: Int64, date: Int64, text: String, editedAt: Int64?, attachments: [AttachmentPayload]?
    ) {
        self.room = room
        self.seq = seq
        self.date = date
        self.text = text
        self.editedAt = editedAt
        self.attachments = attachments
    }
}

/// The whole export, as a client reads it back.
public struct AccountExport: Codable, Sendable, Equatable {
    public var format: String
    public var exportedAt: Int64
    public var profile: UserProfile
    public var rooms: [ExportedRoom]
    public var messages: [ExportedMessage]
}
