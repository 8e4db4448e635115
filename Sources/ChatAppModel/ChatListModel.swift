import ChatClient
import ChatProtocol
import Foundation
import Observation

/// One row of the chat list (the "Chats" tab).
public struct ChatRow: Sendable, Equatable, Identifiable {
    /// The room id.
    public var id: String
    /// The channel or group name, or the other member's display name.
    public var name: String
    /// `channel`, `group` or `direct` (`nil` for a kind this build does not know).
    public var kind: RoomKind?
    /// The last message's text, as the list previews it.
    public var preview: String
    /// Who sent the last message.
    public var lastSender: String?
    /// When (milliseconds since 1970); rows are ordered by it, newest first.
    public var lastActivity: Int64
    /// The unread badge.
    public var unread: Int64
    /// The room's highest `seq` seen.
    public var latestSeq: Int64
    /// For a direct room, the peer's avatar colour and initials.
    public var avatarColor: String?
    /// Initials for the avatar.
    public var initials: String

    /// A row from a room summary.
    public init(_ summary: RoomSummary) {
        self.id = summary.id
        self.name = summary.name
        self.kind = summary.roomKind
        self.preview = summary.lastMessage.map(ChatRow.preview) ?? ""
        self.lastSender = summary.lastMessage?.sender.name
        self.lastActivity = summary.lastMessage?.date ?? 0
        self.unread = summary.unreadCount
        self.latestSeq = summary.latestSeq
        self.avatarColor = summary.peer?.avatarColor
        self.initials = summary.peer?.initials ?? String(summary.name.prefix(1)).uppercased()
    }

    /// Takes the name of a `rename` event newer than what the row stands for; a replayed older one, which the
    /// summary's name already includes, changes nothing.
    mutating func rename(_ event: MessagePayload) {
        guard event.seq > self.latestSeq else { return }
        self.latestSeq = event.seq
        self.name = event.text
        self.initials = String(event.text.prefix(1)).uppercased()
    }

    static func preview(_ message: MessagePayload) -> String {
        if message.deleted == true { return "Message deleted" }
        if message.text.isEmpty, let attachment = message.attachments?.first { return "📎 \(attachment.name)" }
        return message.text
    }
}

/// The chat list: rooms ordered by latest activity, unread badges, the open room never counting as unread.
@MainActor
@Observable
public final class ChatListModel {
    /// The rows, most recent activity first (ties by name).
    public private(set) var rows: [ChatRow] = []
    /// The room on screen, whose messages are read as they arrive.
    public var openRoom: String? {
        didSet { if let room = self.openRoom { self.update(room) { $0.unread = 0 } } }
    }
    /// My user id, so my own messages never count as unread.
    public var me: UUID?

    /// The sum of all badges (for the tab's badge).
    public var totalUnread: Int64 { self.rows.reduce(0) { $0 + $1.unread } }

    /// An empty list.
    public init(me: UUID? = nil) {
        self.me = me
    }

    /// Replaces the rows with the server's summaries.
    public func load(_ summaries: [RoomSummary]) {
        self.rows = summaries.map(ChatRow.init)
        if let room = self.openRoom { self.update(room) { $0.unread = 0 } }
        self.sort()
    }

    /// Applies one client event.
    public func apply(_ event: ChatEvent) {
        switch event {
        case .message(let message, _):
            switch message.eventKind {
            case .message: break
            case .delete, .edit, .preview, .pin, .joined, .left, .invited, .removed, .banned, .role:
                return self.update(message.room) { $0.latestSeq = max($0.latestSeq, message.seq) }
            case .rename: return self.update(message.room) { $0.rename(message) }
            case .reaction, nil: return
            }
            self.update(message.room) { row in
                // A room joined while connected is replayed from its start: what the summary already counted
                // (seq up to its latestSeq) is not new.
                guard message.seq > row.latestSeq else { return }
                row.latestSeq = message.seq
                row.preview = ChatRow.preview(message)
                row.lastSender = message.sender.name
                row.lastActivity = max(row.lastActivity, message.date)
                if message.sender.id != self.me, message.room != self.openRoom { row.unread += 1 }
            }
            self.sort()
        case .receipt(let receipt) where receipt.user == self.me:
            // Read on another device (or here): nothing up to that seq is unread any more.
            self.update(receipt.room) { row in if receipt.seq >= row.latestSeq { row.unread = 0 } }
        case .joined(let summary):
            self.rows.removeAll { $0.id == summary.id }
            self.rows.append(ChatRow(summary))
            self.sort()
        case .left(let room):
            self.rows.removeAll { $0.id == room }
        default:
            break
        }
    }

    private func update(_ room: String, _ change: (inout ChatRow) -> Void) {
        guard let index = self.rows.firstIndex(where: { $0.id == room }) else { return }
        change(&self.rows[index])
    }

    private func sort() {
        self.rows.sort { ($0.lastActivity, $1.name) > ($1.lastActivity, $0.name) }
    }
}
