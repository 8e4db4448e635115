import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// Reports of messages and deleting rooms (PROTOCOL.md §7.4, §10.5), on SQLite and PostgreSQL.
@Suite("Reports and deleting rooms")
struct ReportTests {
    @Test(
        "a member reports a message; the room's moderators and the administrators read it and resolve it with an action, which obeys the ranks; everything is audited"
    )
    func reportAndResolve() async throws {
        try await withTestServer { server in
            let room = try await server.moderatedGroup()
            let (ann, bob, carol, dan) = (room.owner, room.moderator, room.member, room.other)
            let id = room.summary.id
            let root = try await server.registerAdministrator()
            let eve = try await server.register("eve")
            let danSocket = try await server.modernClient(dan)
            _ = try await danSocket.next(.resumed, as: ResumedFrame.self)
            let spam = try await danSocket.acked(.send(SendRequest(room: id, clientMsgID: "d1", text: "buy now")))
            let annSocket = try await server.modernClient(ann)
            _ = try await annSocket.next(.resumed, as: ResumedFrame.self)
            let rules = try await annSocket.acked(.send(SendRequest(room: id, clientMsgID: "a1", text: "be kind")))

            let filed = try await server.api.send(
                .report, id, "\(spam.seq)", json: ReportRequest(reason: " spam "), token: carol.token)
            #expect(filed.status == 201)
            let report = try filed.decode(ReportPayload.self)
            #expect(report.text == "buy now" && report.reason == "spam" && report.author.name == "dan")
            #expect(report.reporter.name == "carol" && report.roomName == "Crew" && report.resolution == nil)
            let again = try await server.api.send(
                .report, id, "\(spam.seq)", json: ReportRequest(reason: "really"), token: carol.token)
            #expect(try again.status == 200 && again.decode(ReportPayload.self).id == report.id)

            // Who reads them: the room's moderators, and the administrators for every room.
            let open = try await server.api.send(.roomReports, id, token: bob.token).decode(ReportPage.self)
            #expect(open.reports.map(\.id) == [report.id] && open.next == nil)
            let member = try await server.api.send(.roomReports, id, token: carol.token)
            #expect(try member.status == 403 && member.decode(APIErrorBody.self).code == .notAllowed)
            #expect(try await server.api.send(.adminReports, token: bob.token).status == 403)
            let all = try await server.api.send(.adminReports, token: root.token).decode(ReportPage.self)
            #expect(all.reports.map(\.id) == [report.id])

            // The moderator bans the author from the report.
            let resolved = try await server.api.send(
                .resolveReport, "\(report.id)", json: ResolveReportRequest(action: "ban-member"), token: bob.token)
            #expect(resolved.status == 200)
            let closed = try resolved.decode(ReportPayload.self)
            #expect(closed.resolution == "ban-member" && closed.resolvedBy?.name == "bob" && closed.resolvedAt != nil)
            #expect(try await danSocket.next(.left, as: LeftFrame.self).room == id)
            let twice = try await server.api.send(
                .resolveReport, "\(report.id)", json: ResolveReportRequest(action: "dismiss"), token: root.token)
            #expect(try twice.status == 409 && twice.decode(APIErrorBody.self).code == .alreadyResolved)
            #expect(
                try await server.api.send(.roomReports, id, query: [("state", "open")], token: bob.token)
                    .decode(ReportPage.self).reports.isEmpty)
            #expect(
                try await server.api.send(.roomReports, id, query: [("state", "resolved")], token: bob.token)
                    .decode(ReportPage.self).reports.map(\.resolution) == ["ban-member"])

            // The owner's message: the moderator may not delete it, nor deactivate anyone; the report stays open
            // until an administrator resolves it.
            let second = try await server.api.send(
                .report, id, "\(rules.seq)", json: ReportRequest(reason: "rude"), token: carol.token
            ).decode(ReportPayload.self)
            let upward = try await server.api.send(
                .resolveReport, "\(second.id)", json: ResolveReportRequest(action: "delete-message"), token: bob.token)
            #expect(try upward.status == 403 && upward.decode(APIErrorBody.self).code == .notAllowed)
            let deactivate = try await server.api.send(
                .resolveReport, "\(second.id)", json: ResolveReportRequest(action: "deactivate-account"),
                token: bob.token)
            #expect(deactivate.status == 403)
            #expect(
                try await server.api.send(.roomReports, id, token: bob.token).decode(ReportPage.self).reports.map(
                    \.id) == [second.id])
            #expect(
                try await server.api.send(
                    .resolveReport, "\(second.id)", json: ResolveReportRequest(action: "delete-message"),
                    token: root.token
                ).status == 200)
            let removal = try await annSocket.nextEvent(.delete)
            #expect(removal.target == rules.seq && removal.sender.name == "root")

            let audit = try await server.api.send(.adminAudit, token: root.token).decode(AuditPage.self)
            #expect(
                audit.entries.map(\.action).suffix(4) == ["ban", "resolve-report", "delete-message", "resolve-report"])

            // Bad input, each a clear error and nothing stored.
            let stranger = try await server.api.send(
                .report, id, "\(spam.seq)", json: ReportRequest(reason: "x"), token: eve.token)
            #expect(try stranger.status == 403 && stranger.decode(APIErrorBody.self).code == .forbidden)
            let elsewhere = try await server.api.send(
                .report, id, "999", json: ReportRequest(reason: "x"), token: carol.token)
            #expect(try elsewhere.status == 400 && elsewhere.decode(APIErrorBody.self).code == .badTarget)
            let deleted = try await server.api.send(
                .report, id, "\(rules.seq)", json: ReportRequest(reason: "x"), token: room.owner.token)
            #expect(deleted.status == 400)
            let empty = try await server.api.send(
                .report, id, "\(spam.seq)", json: ReportRequest(reason: "   "), token: ann.token)
            #expect(try empty.status == 400 && empty.decode(APIErrorBody.self).code == .invalidBody)
            let long = try await server.api.send(
                .report, id, "\(spam.seq)", json: ReportRequest(reason: String(repeating: "x", count: 501)),
                token: ann.token)
            #expect(long.status == 400)
            let action = try await server.api.send(
                .resolveReport, "\(report.id)", json: ResolveReportRequest(action: "shout"), token: root.token)
            #expect(try action.status == 400 && action.decode(APIErrorBody.self).code == .invalidBody)
            let unknown = try await server.api.send(
                .resolveReport, "424242", json: ResolveReportRequest(action: "dismiss"), token: root.token)
            #expect(try unknown.status == 404 && unknown.decode(APIErrorBody.self).code == .notFound)
            let notTheirs = try await server.api.send(
                .resolveReport, "\(report.id)", json: ResolveReportRequest(action: "dismiss"), token: eve.token)
            #expect(notTheirs.status == 404)
            let state = try await server.api.send(.adminReports, query: [("state", "maybe")], token: root.token)
            #expect(state.status == 400)
            #expect(
                try await server.api.send(.adminReports, query: [("state", "all")], token: root.token)
                    .decode(ReportPage.self).reports.count == 2)
        }
    }

    @Test(
        "an administrator deletes a room: its members' sockets get `left`, its history and search are gone; the lobby stays"
    )
    func deleteRoom() async throws {
        try await withTestServer { server in
            let room = try await server.moderatedGroup()
            let id = room.summary.id
            let root = try await server.registerAdministrator()
            let carolSocket = try await server.modernClient(room.member)
            _ = try await carolSocket.next(.resumed, as: ResumedFrame.self)
            _ = try await carolSocket.acked(.send(SendRequest(room: id, clientMsgID: "c1", text: "marmalade")))

            let owner = try await server.api.send(.adminDeleteRoom, id, token: room.owner.token)
            #expect(try owner.status == 403 && owner.decode(APIErrorBody.self).code == .forbidden)
            #expect(try await server.api.send(.adminDeleteRoom, id, token: root.token).status == 204)
            #expect(try await carolSocket.next(.left, as: LeftFrame.self).room == id)
            #expect(try await server.api.send(.history, id, token: room.member.token).status == 403)
            let rooms = try await server.api.send(.rooms, token: room.owner.token).decode([RoomSummary].self)
            #expect(!rooms.contains { $0.id == id })
            let found = try await server.api.send(.GET, "/search?q=marmalade", token: room.member.token)
                .decode(SearchResults.self)
            #expect(found.results.isEmpty)
            let listed = try await server.api.send(.adminRooms, token: root.token).decode(AdminRoomPage.self)
            #expect(!listed.rooms.contains { $0.id == id })

            let again = try await server.api.send(.adminDeleteRoom, id, token: root.token)
            #expect(try again.status == 404 && again.decode(APIErrorBody.self).code == .notFound)
            let lobby = try await server.api.send(.adminDeleteRoom, "lobby", token: root.token)
            #expect(try lobby.status == 403 && lobby.decode(APIErrorBody.self).code == .notAllowed)
            let audit = try await server.api.send(.adminAudit, token: root.token).decode(AuditPage.self)
            #expect(audit.entries.last?.action == "delete-room" && audit.entries.last?.detail == "Crew")
        }
    }
}
