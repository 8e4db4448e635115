import Foundation

/// What a `/chat` client sends, as the Vapor SwiftUI tutorial's `SubmittedChatMessage` encodes it.
///
/// The tutorial's final stage sends all three fields; its first stage sends only `message`, and such a
/// client is treated as a guest. Any other field is ignored, so a client can never choose `id` or `date`.
public struct SubmittedChatMessage: Codable, Sendable, Equatable {
    /// The message text.
    public var message: String
    /// The display name the client typed on its username screen, if any.
    public var user: String?
    /// The identifier the client generated for itself, if any.
    public var userID: UUID?

    /// Creates a submitted message, as a client would encode it.
    public init(message: String, user: String? = nil, userID: UUID? = nil) {
        self.message = message
        self.user = user
        self.userID = userID
    }
}

/// What every `/chat` client receives, as the tutorial's `ReceivingChatMessage` decodes it.
///
/// Encoded with a default `JSONEncoder`, so `date` is a number of seconds since 2001-01-01T00:00:00Z and the
/// UUIDs are uppercase strings: exactly what a default `JSONDecoder` on the client expects.
public struct ReceivingChatMessage: Codable, Sendable, Equatable {
    /// When the server committed the message.
    public var date: Date
    /// The server-assigned message identifier.
    public var id: UUID
    /// The message text.
    public var message: String
    /// The sender's display name.
    public var user: String
    /// The sender's identifier.
    public var userID: UUID

    /// Creates a message as the server sends it.
    public init(date: Date, id: UUID, message: String, user: String, userID: UUID) {
        self.date = date
        self.id = id
        self.message = message
        self.user = user
        self.userID = userID
    }
}

/// The frame a `/chat` client receives when the server rejects what it sent: `{"error":"<reason>"}`.
public struct LobbyChatError: Codable, Sendable, Equatable {
    /// A human-readable reason.
    public var error: String

    /// Creates an error frame with the given reason.
    public init(error: String) {
        self.error = error
    }
}
