import Foundation

/// Search over the messages of the rooms a user belongs to (PROTOCOL.md §9.7).
///
/// SQLite answers it with an FTS5 index, PostgreSQL with a `tsvector` column and its GIN index; both index the same
/// tokens (``SearchDocument``), so both find the same messages.
public protocol MessageSearch: Sendable {
    /// The newest messages (not deleted) of the rooms `user` belongs to that meet `criteria`, newest first.
    func search(_ criteria: SearchCriteria, for user: UUID, limit: Int) async throws -> [StoredMessage]
}

/// A search with every name resolved: what the index must hold, and what the message's columns must say.
public struct SearchCriteria: Sendable, Equatable {
    /// Each group must match, by any one of its phrases.
    public var required: [[SearchPhrase]] = []
    /// No phrase here may match.
    public var excluded: [SearchPhrase] = []
    public var room: RoomID?
    public var before: Date?
    public var after: Date?
    /// Attachments the message must have (``SearchAttachmentFilter/image`` or ``SearchAttachmentFilter/file``).
    public var attachments: Set<SearchAttachmentFilter> = []

    public init() {}

    /// Whether the index has something to look for; otherwise the messages' columns alone decide.
    public var usesIndex: Bool { !self.required.isEmpty }
}

/// A piece of a snippet: matched text or the text between matches.
public struct SnippetPart: Sendable, Equatable {
    public var text: String
    public var isMatch: Bool

    public init(text: String, isMatch: Bool) {
        self.text = text
        self.isMatch = isMatch
    }
}
