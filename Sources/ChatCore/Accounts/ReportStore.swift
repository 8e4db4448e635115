import Foundation

/// A member's report of a message to the room's moderators and the server's administrators (PROTOCOL.md §7.4). It
/// keeps what the message said when it was reported, so those who resolve it can read it after a deletion.
public struct Report: Sendable, Equatable {
    /// Given when it is stored, in the order reports arrive.
    public var id: Int64?
    public var room: RoomID
    public var seq: Int64
    public var reporter: Sender
    public var author: Sender
    /// The message's text when it was reported.
    public var text: String
    public var reason: String
    public var date: Date
    public var resolution: Resolution?

    public init(
        id: Int64? = nil, room: RoomID, seq: Int64, reporter: Sender, author: Sender, text: String, reason: String,
        date: Date, resolution: Resolution? = nil
    ) {
        self.id = id
        self.room = room
        self.seq = seq
        self.reporter = reporter
        self.author = author
        self.text = text
        self.reason = reason
        self.date = date
        self.resolution = resolution
    }

    /// How a report was closed, by whom and when.
    public struct Resolution: Sendable, Equatable {
        /// `dismiss`, `delete-message`, `remove-member`, `ban-member` or `deactivate-account`.
        public var action: String
        public var by: Sender
        public var date: Date

        public init(action: String, by: Sender, date: Date) {
            self.action = action
            self.by = by
            self.date = date
        }
    }
}

/// Which reports a list holds.
public enum ReportState: String, Sendable, CaseIterable {
    case open
    case resolved
    case all
}

/// Durable storage of reports.
public protocol ReportStore: Sendable {
    /// Stores a report and returns it with its id; a member who reported the message before gets that report back
    /// instead (`created` `false`), and nothing new is stored.
    func file(_ report: Report) async throws -> (report: Report, created: Bool)
    func report(_ id: Int64) async throws -> Report?
    /// Reports by id after `after`, at most `limit`, of one room or of all (`room` `nil`).
    func reports(in room: RoomID?, state: ReportState, after: Int64?, limit: Int) async throws -> [Report]
    /// Closes an open report; `false` when it was closed already.
    func resolve(_ id: Int64, _ resolution: Report.Resolution) async throws -> Bool
}
