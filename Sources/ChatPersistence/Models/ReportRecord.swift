import ChatCore
import FluentKit
import Foundation

/// A row of `reports`.
final class ReportRecord: Model, @unchecked Sendable {
    static let schema = "reports"

    @ID(custom: "id", generatedBy: .database) var id: Int64?
    @Field(key: "room_id") var roomID: String
    @Field(key: "seq") var seq: Int64
    @Field(key: "reporter_id") var reporterID: UUID
    @Field(key: "reporter_name") var reporterName: String
    @Field(key: "author_id") var authorID: UUID
    @Field(key: "author_name") var authorName: String
    @OptionalField(key: "author_via") var authorVia: String?
    @Field(key: "text") var text: String
    @Field(key: "reason") var reason: String
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "resolution") var resolution: String?
    @OptionalField(key: "resolved_by_id") var resolvedByID: UUID?
    @OptionalField(key: "resolved_by_name") var resolvedByName: String?
    @OptionalField(key: "resolved_at") var resolvedAt: Date?

    init() {}

    init(_ report: Report) {
        self.roomID = report.room.rawValue
        self.seq = report.seq
        self.reporterID = report.reporter.id
        self.reporterName = report.reporter.name
        self.authorID = report.author.id
        self.authorName = report.author.name
        self.authorVia = report.author.via?.rawValue
        self.text = report.text
        self.reason = report.reason
        self.createdAt = report.date
    }

    var report: Report {
        var resolution: Report.Resolution?
        if let action = self.resolution, let by = self.resolvedByID, let date = self.resolvedAt {
            resolution = Report.Resolution(
                action: action, by: Sender(name: self.resolvedByName ?? "", id: by), date: date)
        }
        return Report(
            id: self.id, room: RoomID(self.roomID), seq: self.seq,
            reporter: Sender(name: self.reporterName, id: self.reporterID),
            author: Sender(
                name: self.authorName, id: self.authorID, via: self.authorVia.flatMap(SenderVia.init(rawValue:))),
            text: self.text, reason: self.reason, date: self.createdAt, resolution: resolution)
    }
}
