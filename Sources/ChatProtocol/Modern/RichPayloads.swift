import Foundation

/// The quote a reply carries: who wrote the message it answers, and the start of its text (empty once deleted).
public struct QuotePayload: Codable, Sendable, Equatable {
    public var seq: Int64
    public var sender: SenderPayload
    public var text: String

    public init(seq: Int64, sender: SenderPayload, text: String) {
        self.seq = seq
        self.sender = sender
        self.text = text
    }
}

/// An uploaded file as messages and `POST /api/v1/attachments` describe it (PROTOCOL.md §9.3).
public struct AttachmentPayload: Codable, Sendable, Hashable {
    public var id: UUID
    public var name: String
    /// Detected from the bytes: `image/png`, `image/jpeg`, `image/gif`, `image/webp`, `audio/ogg`, `audio/webm`,
    /// `audio/mp4` or `application/octet-stream`.
    public var contentType: String
    public var size: Int64
    /// For images, in pixels.
    public var width: Int?
    public var height: Int?
    /// For audio (a voice message), its length in milliseconds as the uploader declared it (PROTOCOL.md §9.3).
    public var durationMs: Int?

    public init(
        id: UUID, name: String, contentType: String, size: Int64, width: Int? = nil, height: Int? = nil,
        durationMs: Int? = nil
    ) {
        self.durationMs = durationMs
        self.id = id
        self.name = name
        self.contentType = contentType
        self.size = size
        self.width = width
        self.height = height
    }
}

/// What a link in a message shows (PROTOCOL.md §9.15): the page's OpenGraph or `<title>` description, fetched by
/// the server, with its image stored as an attachment (never hot-linked).
public struct LinkPreviewPayload: Codable, Sendable, Hashable {
    /// The link as the message wrote it.
    public var url: String
    public var title: String?
    public var description: String?
    public var siteName: String?
    public var image: AttachmentPayload?

    public init(
        url: String, title: String? = nil, description: String? = nil, siteName: String? = nil,
        image: AttachmentPayload? = nil
    ) {
        self.url = url
        self.title = title
        self.description = description
        self.siteName = siteName
        self.image = image
    }
}

/// Everyone who reacted to a message with one emoji.
public struct ReactionPayload: Codable, Sendable, Hashable {
    public var emoji: String
    /// In the order they reacted.
    public var users: [UUID]

    public init(emoji: String, users: [UUID]) {
        self.emoji = emoji
        self.users = users
    }
}

/// `GET /api/v1/search` (PROTOCOL.md §9.7).
public struct SearchResults: Codable, Sendable, Equatable {
    public var results: [SearchHit]

    public init(results: [SearchHit]) {
        self.results = results
    }
}

/// One found message and the part of its text around the matches.
public struct SearchHit: Codable, Sendable, Equatable {
    public var message: MessagePayload
    public var snippet: [SnippetPiece]

    public init(message: MessagePayload, snippet: [SnippetPiece]) {
        self.message = message
        self.snippet = snippet
    }
}

/// A piece of a snippet; `match` pieces are what a client highlights. Always shown as text, never as markup.
public struct SnippetPiece: Codable, Sendable, Equatable {
    public var text: String
    public var match: Bool?

    public init(text: String, match: Bool? = nil) {
        self.text = text
        self.match = match
    }
}

/// `GET /api/v1/config`: the server's limits, for clients to check before they upload or send.
public struct ServerLimits: Codable, Sendable, Equatable {
    public var version: String
    public var maxUploadBytes: Int
    public var imageTypes: [String]
    public var filesAllowed: Bool
    public var maxAttachments: Int
    public var maxMessageBytes: Int
    /// `open` or `closed` (PROTOCOL.md §10.1); absent from servers before administration.
    public var registration: String?

    public init(
        version: String, maxUploadBytes: Int, imageTypes: [String], filesAllowed: Bool, maxAttachments: Int,
        maxMessageBytes: Int, registration: String? = nil
    ) {
        self.version = version
        self.maxUploadBytes = maxUploadBytes
        self.imageTypes = imageTypes
        self.filesAllowed = filesAllowed
        self.maxAttachments = maxAttachments
        self.maxMessageBytes = maxMessageBytes
        self.registration = registration
    }
}

/// `GET /api/v1/users/{id}`: a profile with presence.
public struct UserDetails: Codable, Sendable, Equatable {
    public var id: UUID
    public var username: String
    public var displayName: String
    public var avatarColor: String
    public var initials: String
    public var online: Bool
    /// Milliseconds since 1970 when the user was last connected; `nil` when never.
    public var lastSeen: Int64?
    /// Where the user's picture is (PROTOCOL.md §6.5); absent for none.
    public var avatarURL: String?

    public init(_ profile: UserProfile, online: Bool, lastSeen: Int64?) {
        self.avatarURL = profile.avatarURL
        self.id = profile.id
        self.username = profile.username
        self.displayName = profile.displayName
        self.avatarColor = profile.avatarColor
        self.initials = profile.initials
        self.online = online
        self.lastSeen = lastSeen
    }
}

/// `GET /api/v1/mentions`: messages that mention me, newest first; `next` is the `before` of the next page, absent on
/// the last.
public struct MentionPage: Codable, Sendable, Equatable {
    public var messages: [MessagePayload]
    public var next: Int64?

    public init(messages: [MessagePayload], next: Int64?) {
        self.messages = messages
        self.next = next
    }
}
