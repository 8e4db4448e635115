import Foundation

/// `POST /api/v1/rooms/{id}/messages/{seq}/report` (PROTOCOL.md §7.4).
public struct ReportRequest: Codable, Sendable, Equatable {
    /// 1 to 500 characters: why the message should be looked at.
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }
}

/// `POST /api/v1/reports/{id}/resolve`: what is done about it.
public struct ResolveReportRequest: Codable, Sendable, Equatable {
    /// `dismiss`, `delete-message`, `remove-member`, `ban-member` or `deactivate-account`.
    public var action: String

    public init(action: String) {
        self.action = action
    }
}

/// A report as moderators and administrators read it.
public struct ReportPayload: Codable, Sendable, Equatable {
    public var id: Int64
    public var room: String
    /// The room's name, for a list of every room's reports.
    public var roomName: String?
    public var seq: Int64
    public var reporter: SenderPayload
    /// Who wrote the message.
    public var author: SenderPayload
    /// What the message said when it was reported.
    public var text: String
    public var reason: String
    /// Milliseconds since 1970.
    public var date: Int64
    /// How it was resolved; absent while open.
    public var resolution: String?
    public var resolvedBy: SenderPayload?
    public var resolvedAt: Int64?

    public init(
        id: Int64, room: String, roomName: String?, seq: Int64, reporter: SenderPayload, author: SenderPayload,
        text: String, reason: String, date: Int64, resolution: String? = nil, resolvedBy: SenderPayload? = nil,
        resolvedAt: Int64? = nil
    ) {
        self.id = id
        self.room = room
        self.roomName = roomName
        self.seq = seq
        self.reporter = reporter
        self.author = author
        self.text = text
        self.reason = reason
        self.date = date
        self.resolution = resolution
        self.resolvedBy = resolvedBy
        self.resolvedAt = resolvedAt
    }
}

/// One page of reports, oldest first: `next` is the `after` of the next page, `nil` on the last.
public struct ReportPage: Codable, Sendable, Equatable {
    public var reports: [ReportPayload]
    public var next: Int64?

    public init(reports: [ReportPayload], next: Int64?) {
        self.reports = reports
        self.next = next
    }
}
