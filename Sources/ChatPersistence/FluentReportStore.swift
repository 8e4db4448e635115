import ChatCore
import FluentKit
import Foundation

/// The ``ReportStore`` on a Fluent database.
public struct FluentReportStore: ReportStore {
    private let database: any Database

    public init(database: any Database) {
        self.database = database
    }

    public func file(_ report: Report) async throws -> (report: Report, created: Bool) {
        let record = ReportRecord(report)
        do {
            try await record.create(on: self.database)
            return (record.report, true)
        } catch  where (error as? any DatabaseError)?.isConstraintFailure == true {
            // Reported by the same member before: that report stands.
            guard
                let earlier = try await ReportRecord.query(on: self.database)
                    .filter(\.$roomID == report.room.rawValue).filter(\.$seq == report.seq)
                    .filter(\.$reporterID == report.reporter.id).first()
            else { throw error }
            return (earlier.report, false)
        }
    }

    public func report(_ id: Int64) async throws -> Report? {
        try await ReportRecord.find(id, on: self.database)?.report
    }

    public func reports(in room: RoomID?, state: ReportState, after: Int64?, limit: Int) async throws -> [Report] {
        let query = ReportRecord.query(on: self.database)
        if let room { query.filter(\.$roomID == room.rawValue) }
        if let after { query.filter(\.$id > after) }
        switch state {
        case .open: query.filter(\.$resolvedAt == nil)
        case .resolved: query.filter(\.$resolvedAt != nil)
        case .all: break
        }
        return try await query.sort(\.$id).limit(limit).all().map(\.report)
    }

    public func resolve(_ id: Int64, _ resolution: Report.Resolution) async throws -> Bool {
        // Only an open report: of two moderators resolving it at once, one wins.
        let open = ReportRecord.query(on: self.database).filter(\.$id == id).filter(\.$resolvedAt == nil)
        guard try await open.first() != nil else { return false }
        try await ReportRecord.query(on: self.database).filter(\.$id == id).filter(\.$resolvedAt == nil)
            .set(\.$resolution, to: resolution.action).set(\.$resolvedByID, to: resolution.by.id)
            .set(\.$resolvedByName, to: resolution.by.name).set(\.$resolvedAt, to: resolution.date)
            .update()
        return try await ReportRecord.find(id, on: self.database)?.resolvedByID == resolution.by.id
    }
}
