import Foundation

/// A message that edits, deletes and reactions change, and an event that may be such a change: the server's
/// `StoredMessage` and the wire's ``MessagePayload`` are both.
public protocol FoldableMessage {
    /// The event's kind; `nil` for a kind this build does not know.
    var eventKind: EventKind? { get }
    var seq: Int64 { get }
    /// For a change: the `seq` of the message it applies to.
    var target: Int64? { get }
    var text: String { get set }
    /// For a reaction: the emoji, and whether it was added (else removed).
    var emoji: String? { get }
    /// A message's link preview; for a `preview` event, the one it sets (`nil`: it removes it).
    var linkPreview: LinkPreviewPayload? { get set }
    var added: Bool? { get }
    /// Whether a message is pinned to the top of its room now.
    var isPinned: Bool { get set }
    var senderID: UUID { get }
    var isDeleted: Bool { get }
    /// One entry per emoji, in the order each emoji first appeared.
    var reactionList: [ReactionPayload] { get set }
    /// Takes the time `edit` was made as this message's edit time, and its mentions as the message's.
    mutating func markEdited(by edit: Self)
    /// Leaves a tombstone: no text, no attachments, no reactions, no preview, no edit time, not pinned.
    mutating func becomeTombstone()
}

/// What a change does to the message it targets (PROTOCOL.md §9.1), written once: the server's in-memory state and
/// `ChatClient`'s `Timeline` both fold events through it. The store's SQL is the durable form of the same rules,
/// and the shared vectors in `Tests/Fixtures/folding` check all of them, the web client's `store.js` included.
///
/// Which changes a message's state already includes is the caller's business (a history page holds messages as
/// they were when it was read; see `Timeline`).
public enum EventFolding {
    /// Applies `event` to `message` when it is an edit, delete, reaction, preview or pin that targets it; anything else changes
    /// nothing. An edit of a deleted message changes nothing: a tombstone stays empty.
    public static func apply<Message: FoldableMessage>(_ event: Message, to message: inout Message) {
        guard event.target == message.seq, message.eventKind == .message else { return }
        switch event.eventKind {
        case .edit:
            guard !message.isDeleted else { return }
            message.text = event.text
            message.markEdited(by: event)
        case .delete:
            message.becomeTombstone()
        case .reaction:
            guard let emoji = event.emoji else { return }
            Self.react(&message.reactionList, emoji: emoji, user: event.senderID, added: event.added != false)
        case .preview:
            guard !message.isDeleted else { return }
            message.linkPreview = event.linkPreview
        case .pin:
            guard !message.isDeleted else { return }
            message.isPinned = event.added != false
        case .message, .rename, .joined, .left, .invited, .removed, .banned, .role, nil:
            break
        }
    }

    /// Adds or removes `user`'s `emoji`: one entry per emoji, kept where the emoji first appeared, its users in the
    /// order they reacted; an entry without users goes.
    public static func react(_ reactions: inout [ReactionPayload], emoji: String, user: UUID, added: Bool) {
        let index = reactions.firstIndex { $0.emoji == emoji }
        var users = index.map { reactions[$0].users } ?? []
        if added {
            if !users.contains(user) { users.append(user) }
        } else {
            users.removeAll { $0 == user }
        }
        switch (index, users.isEmpty) {
        case (let index?, true): reactions.remove(at: index)
        case (let index?, false): reactions[index].users = users
        case (nil, false): reactions.append(ReactionPayload(emoji: emoji, users: users))
        case (nil, true): break
        }
    }
}

extension MessagePayload: FoldableMessage {
    public var senderID: UUID { self.sender.id }
    public var isDeleted: Bool { self.deleted == true }

    public var linkPreview: LinkPreviewPayload? {
        get { self.preview }
        set { self.preview = newValue }
    }

    public var isPinned: Bool {
        get { self.pinned == true }
        set { self.pinned = newValue ? true : nil }
    }

    public var reactionList: [ReactionPayload] {
        get { self.reactions ?? [] }
        set { self.reactions = newValue.isEmpty ? nil : newValue }
    }

    public mutating func markEdited(by edit: MessagePayload) {
        self.editedAt = edit.date
        self.mentions = edit.mentions
        self.mentionsAll = edit.mentionsAll
    }

    public mutating func becomeTombstone() {
        self.deleted = true
        self.text = ""
        self.editedAt = nil
        self.attachments = nil
        self.reactions = nil
        self.preview = nil
        self.mentions = nil
        self.mentionsAll = nil
        self.pinned = nil
    }
}
