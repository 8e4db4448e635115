import ChatCore
import ChatProtocol
import Foundation

/// Reports of messages (PROTOCOL.md §7.4): a member reports a message of a room they are in; the room's moderators
/// (and the administrators, for every room) read the reports and resolve each with an action, done by the same use
/// cases as the action on its own (``RoomModeration``, ``Administration``), so the same ranks apply. Resolving is in
/// the audit log.
public struct Reports: Sendable {
    let store: any ReportStore
    let directory: any RoomDirectory
    let messages: any MessageStore
    let moderation: RoomModeration
    let administration: Administration
    let audit: any AuditLog

    public init(
        store: any ReportStore, directory: any RoomDirectory, messages: any MessageStore, moderation: RoomModeration,
        administration: Administration, audit: any AuditLog
    ) {
        self.store = store
        self.directory = directory
        self.messages = messages
        self.moderation = moderation
        self.administration = administration
        self.audit = audit
    }

    /// What resolving a report may do, besides closing it.
    public enum Action: String, CaseIterable, Sendable {
        case dismiss
        case deleteMessage = "delete-message"
        case removeMember = "remove-member"
        case banMember = "ban-member"
        case deactivateAccount = "deactivate-account"
    }

    /// How many reports a page holds: 50 when the request does not say.
    static let limits = 1...200

    /// `POST /rooms/{id}/messages/{seq}/report`: the report, and whether it is new (a member who reported the message
    /// already gets that report back).
    public func report(_ seq: Int64, in id: RoomID, by member: Account, reason rawReason: String) async throws
        -> (report: ReportPayload, created: Bool)
    {
        let reason = rawReason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...500).contains(reason.count) else {
            throw Refusal.invalid(.invalidBody, "A report's reason is 1 to 500 characters.")
        }
        return try await StoreUnavailable.guarding("the report could not be saved") {
            let room = try await RoomAccess(directory: self.directory).room(id, for: member.id)
            guard let message = try await self.messages.message(in: room.id, seq: seq), message.kind == .message,
                !message.deleted
            else {
                throw Refusal.invalid(.badTarget, "No message \(seq) in this room, or it is deleted.")
            }
            let filed = try await self.store.file(
                Report(
                    room: room.id, seq: seq, reporter: member.sender, author: message.sender, text: message.text,
                    reason: reason, date: Date()))
            return (try await self.payload(filed.report, roomName: room.name), filed.created)
        }
    }

    /// `GET /admin/reports` (room `nil`, administrators) or `GET /rooms/{id}/reports` (the room's moderators).
    public func reports(
        in room: RoomID?, for actor: Account, state rawState: String?, after: Int64?, limit: Int?
    ) async throws -> ReportPage {
        guard let state = ReportState(rawValue: rawState ?? ReportState.open.rawValue) else {
            throw Refusal.invalid(.badRequest, "state is open, resolved or all.")
        }
        let limit = limit ?? 50
        guard Self.limits.contains(limit) else { throw Refusal.invalid(.invalidLimit, "limit is 1 to 200.") }
        if room == nil { try self.administration.requireAdministrator(actor) }
        return try await StoreUnavailable.guarding("the reports could not be read") {
            if let room { _ = try await self.moderation.scene(room, by: actor) }
            let page = try await self.store.reports(in: room, state: state, after: after, limit: limit + 1)
            var names: [RoomID: String?] = [:]
            var reports: [ReportPayload] = []
            for report in page.prefix(limit) {
                if names[report.room] == nil { names[report.room] = try await self.directory.room(report.room)?.name }
                reports.append(try await self.payload(report, roomName: names[report.room] ?? nil))
            }
            return ReportPage(reports: reports, next: page.count > limit ? reports.last?.id : nil)
        }
    }

    /// `POST /reports/{id}/resolve`: does `action` as the resolver (with the rank it needs: deactivating is for
    /// administrators), then closes the report. A report closed already is **409** `already_resolved`, and nothing
    /// is done.
    public func resolve(_ id: Int64, action rawAction: String, by actor: Account, from address: String) async throws
        -> ReportPayload
    {
        guard let action = Action(rawValue: rawAction) else {
            throw Refusal.invalid(
                .invalidBody,
                "action is one of \(Action.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        let report = try await StoreUnavailable.guarding("the report could not be read") {
            guard let report = try await self.store.report(id) else { throw Self.unknownReport }
            // Only its room's moderators and the administrators see it exists.
            do {
                _ = try await self.moderation.scene(report.room, by: actor)
            } catch RoomAccessDenied.forbidden {
                throw Self.unknownReport
            }
            return report
        }
        guard report.resolution == nil else { throw Self.alreadyResolved }
        try await self.act(action, on: report, by: actor, from: address)
        let resolution = Report.Resolution(action: action.rawValue, by: actor.sender, date: Date())
        return try await StoreUnavailable.guarding("the report could not be resolved") {
            guard try await self.store.resolve(id, resolution) else { throw Self.alreadyResolved }
            try await self.audit.record(
                AuditEntry(
                    actor: actor.id, actorName: actor.username, action: "resolve-report", target: "report/\(id)",
                    detail: action.rawValue, address: address, date: resolution.date))
            var resolved = report
            resolved.resolution = resolution
            return try await self.payload(resolved, roomName: try await self.directory.room(report.room)?.name)
        }
    }

    private func act(_ action: Action, on report: Report, by actor: Account, from address: String) async throws {
        let author = report.author.via == nil ? report.author.id : nil
        switch action {
        case .dismiss:
            return
        case .deleteMessage:
            // Deleted since by its author or someone else: there is nothing left to remove.
            guard let message = try await self.messages.message(in: report.room, seq: report.seq), !message.deleted
            else { return }
            _ = try await self.moderation.removeMessage(report.seq, in: report.room, by: actor, from: address)
        case .removeMember:
            guard let author else { throw Self.noAccount }
            try await self.moderation.remove(author, from: report.room, by: actor, from: address)
        case .banMember:
            guard let author else { throw Self.noAccount }
            try await self.moderation.ban(author, in: report.room, by: actor, from: address)
        case .deactivateAccount:
            guard let author else { throw Self.noAccount }
            try self.administration.requireAdministrator(actor)
            _ = try await self.administration.apply(
                .deactivate(at: Date()), to: .id(author), by: .account(actor, from: address))
        }
    }

    private func payload(_ report: Report, roomName: String?) async throws -> ReportPayload {
        ReportPayload(
            id: report.id ?? 0, room: report.room.rawValue, roomName: roomName, seq: report.seq,
            reporter: report.reporter.payload, author: report.author.payload, text: report.text,
            reason: report.reason, date: report.date.milliseconds, resolution: report.resolution?.action,
            resolvedBy: report.resolution?.by.payload, resolvedAt: report.resolution?.date.milliseconds)
    }

    static let unknownReport = Refusal(kind: .notFound, code: .notFound, message: "No such report.")
    static let alreadyResolved = Refusal(
        kind: .conflict, code: .alreadyResolved, message: "Someone resolved this report already.")
    static let noAccount = Refusal.invalid(
        .badTarget, "A tutorial client wrote this message: it has no account to remove, ban or deactivate.")
}
