import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// Room roles, removing, banning and muting, and membership events (PROTOCOL.md §7.3, §9.1), on SQLite and
/// PostgreSQL.
@Suite("Room moderation")
struct RoomModerationTests {
    @Test(
        "who may moderate whom: a stranger, a member, a moderator, the owner and an administrator over every route; nobody moderates their own rank or higher"
    )
    func authorizationMatrix() async throws {
        try await withTestServer { server in
            let room = try await server.moderatedGroup()
            let (ann, bob, carol, dan) = (room.owner, room.moderator, room.member, room.other)
            let eve = try await server.register("eve")
            let root = try await server.registerAdministrator()
            let id = room.summary.id
            let routes: [(APIRoute, (AuthSession) -> [String], (any Encodable & Sendable)?)] = [
                (.setRole, { [id, $0.user.id.uuidString] }, RoleChange(role: "moderator")),
                (.removeMember, { [id, $0.user.id.uuidString] }, nil),
                (.ban, { [id, $0.user.id.uuidString] }, nil),
                (.mute, { [id, $0.user.id.uuidString] }, nil),
            ]
            for (route, arguments, body) in routes {
                // A stranger learns nothing about the room.
                let stranger = try await server.api.send(route, arguments: arguments(dan), json: body, token: eve.token)
                #expect(try stranger.status == 403 && stranger.decode(APIErrorBody.self).code == .forbidden)
                // A member moderates no one.
                let member = try await server.api.send(route, arguments: arguments(dan), json: body, token: carol.token)
                #expect(try member.status == 403 && member.decode(APIErrorBody.self).code == .notAllowed, "\(route)")
                // A moderator moderates neither the owner nor another moderator (nor names moderators at all).
                let upward = try await server.api.send(route, arguments: arguments(ann), json: body, token: bob.token)
                #expect(try upward.status == 403 && upward.decode(APIErrorBody.self).code == .notAllowed, "\(route)")
                // Nobody moderates an administrator.
                _ = try await server.api.send(.invite, id, json: UsernameRequest(username: "root"), token: ann.token)
                let admin = try await server.api.send(route, arguments: arguments(root), json: body, token: ann.token)
                #expect(admin.status == 403, "\(route)")
            }
            // Every refusal stored nothing: the room's events are the invitation of root alone.
            let events = try await server.api.send(.history, id, token: ann.token).decode(HistoryPage.self).messages
            #expect(events.map(\.eventKind) == [.role, .invited])
            let members = try await server.members(of: id, token: ann.token)
            #expect(members["ann"]?.role == .owner && members["bob"]?.role == .moderator)
            #expect(members["carol"]?.role == .member && members["carol"]?.muted == nil)

            // The moderator mutes and removes members; the administrator, in no room, removes the moderator.
            #expect(try await server.api.send(.mute, id, carol.user.id.uuidString, token: bob.token).status == 204)
            #expect(try await server.members(of: id, token: ann.token)["carol"]?.muted == true)
            #expect(
                try await server.api.send(.removeMember, id, dan.user.id.uuidString, token: bob.token).status == 204)
            #expect(
                try await server.api.send(.removeMember, id, bob.user.id.uuidString, token: root.token).status == 204)
            #expect(try await server.members(of: id, token: ann.token).keys.sorted() == ["ann", "carol", "root"])

            // A deactivated moderator's token opens nothing.
            _ = try await server.api.send(
                .setRole, id, carol.user.id.uuidString, json: RoleChange(role: "moderator"), token: ann.token)
            let deactivation = try await server.api.send(.adminDeactivate, carol.user.id.uuidString, token: root.token)
            #expect(deactivation.status == 200, "\(String(decoding: deactivation.body, as: UTF8.self))")
            let deactivated = try await server.api.send(.removeMember, id, ann.user.id.uuidString, token: carol.token)
            #expect(deactivated.status == 401)

            let audit = try await server.api.send(.adminAudit, token: root.token).decode(AuditPage.self)
            #expect(
                audit.entries.map(\.action).filter { $0 != "grant" && $0 != "deactivate" } == [
                    "role", "mute", "remove-member", "remove-member", "role",
                ])
            #expect(audit.entries.contains { $0.action == "mute" && $0.target == "\(id)/\(carol.user.id.uuidString)" })
        }
    }

    @Test(
        "membership changes are events of the room: every member's socket receives them, history pages them, resume replays them, and the removed member gets `left` at once"
    )
    func membershipEvents() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let carol = try await server.register("carol")
            let channel = try await server.api.send(
                .createRoom, json: CreateRoomRequest(kind: "channel", name: "Town"), token: ann.token
            ).decode(RoomSummary.self)
            let annSocket = try await server.modernClient(ann)
            _ = try await annSocket.next(.resumed, as: ResumedFrame.self)

            #expect(try await server.api.send(.join, channel.id, token: bob.token).status == 200)
            let joined = try await annSocket.nextEvent(.joined)
            #expect(joined.sender.name == "bob" && joined.member?.id == bob.user.id && joined.seq == 1)
            #expect(
                try await server.api.send(
                    .invite, channel.id, json: UsernameRequest(username: "carol"), token: bob.token
                )
                .status == 204)
            let invited = try await annSocket.nextEvent(.invited)
            #expect(invited.sender.name == "bob" && invited.member?.name == "carol")
            let carolSocket = try await server.modernClient(carol)
            _ = try await carolSocket.next(.resumed, as: ResumedFrame.self)
            #expect(
                try await server.api.send(
                    .setRole, channel.id, bob.user.id.uuidString, json: RoleChange(role: "moderator"), token: ann.token
                ).status == 204)
            let role = try await carolSocket.nextEvent(.role)
            #expect(role.text == "moderator" && role.member?.name == "bob" && role.sender.name == "ann")
            // Joining or inviting a member again, or giving the same role, stores nothing.
            _ = try await server.api.send(.join, channel.id, token: bob.token)
            _ = try await server.api.send(
                .setRole, channel.id, bob.user.id.uuidString, json: RoleChange(role: "moderator"), token: ann.token)

            #expect(
                try await server.api.send(.removeMember, channel.id, carol.user.id.uuidString, token: bob.token).status
                    == 204)
            #expect(try await carolSocket.next(.left, as: LeftFrame.self).room == channel.id)
            let removed = try await annSocket.nextEvent(.removed)
            #expect(removed.member?.name == "carol" && removed.sender.name == "bob")
            #expect(
                try await carolSocket.errorCode(
                    for: .send(SendRequest(room: channel.id, clientMsgID: "c1", text: "hi")))
                    == .forbidden)
            #expect(try await server.api.send(.leave, channel.id, token: bob.token).status == 204)
            #expect(try await annSocket.nextEvent(.left).member?.name == "bob")

            let page = try await server.api.send(.history, channel.id, token: ann.token).decode(HistoryPage.self)
            #expect(page.messages.map(\.eventKind) == [.joined, .invited, .role, .removed, .left])
            #expect(page.messages.map(\.seq) == [1, 2, 3, 4, 5])
            let resumed = try await server.modernClient(ann, resume: [channel.id: 2])
            #expect(try await resumed.nextEvent(.role).seq == 3)
            #expect(try await resumed.nextEvent(.removed).seq == 4)
            #expect(try await resumed.nextEvent(.left).seq == 5)
            // Not messages: nothing unread, no preview.
            let summary = try #require(
                try await server.api.send(.rooms, token: ann.token).decode([RoomSummary].self).first {
                    $0.id == channel.id
                })
            #expect(summary.unreadCount == 0 && summary.lastMessage == nil && summary.latestSeq == 5)
            #expect(summary.role == .owner)
        }
    }

    @Test("a ban outlasts leaving, joining and invitations until it is lifted; a mute outlasts leaving and joining")
    func banAndMute() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let bob = try await server.register("bob")
            let carol = try await server.register("carol")
            let channel = try await server.api.send(
                .createRoom, json: CreateRoomRequest(kind: "channel", name: "Town", members: ["bob"]), token: ann.token
            ).decode(RoomSummary.self)
            let bobSocket = try await server.modernClient(bob)
            _ = try await bobSocket.next(.resumed, as: ResumedFrame.self)

            #expect(try await server.api.send(.ban, channel.id, bob.user.id.uuidString, token: ann.token).status == 204)
            #expect(try await bobSocket.next(.left, as: LeftFrame.self).room == channel.id)
            let join = try await server.api.send(.join, channel.id, token: bob.token)
            #expect(try join.status == 403 && join.decode(APIErrorBody.self).code == .banned)
            let invite = try await server.api.send(
                .invite, channel.id, json: UsernameRequest(username: "bob"), token: ann.token)
            #expect(try invite.status == 403 && invite.decode(APIErrorBody.self).code == .banned)
            // Someone not in the room can be banned before they join.
            #expect(
                try await server.api.send(.ban, channel.id, carol.user.id.uuidString, token: ann.token).status == 204)
            #expect(try await server.api.send(.join, channel.id, token: carol.token).status == 403)
            let bans = try await server.api.send(.bans, channel.id, token: ann.token).decode([UserProfile].self)
            #expect(bans.map(\.username) == ["bob", "carol"])
            #expect(
                try await server.api.send(.unban, channel.id, bob.user.id.uuidString, token: ann.token).status == 204)
            #expect(try await server.api.send(.join, channel.id, token: bob.token).status == 200)
            let page = try await server.api.send(.history, channel.id, token: ann.token).decode(HistoryPage.self)
            #expect(page.messages.map(\.eventKind) == [.banned, .joined])

            // Muted: reads, sends nothing (over the socket: `forbidden` with the reason `muted`), even after
            // leaving and joining again; unmuted, sends again.
            #expect(
                try await server.api.send(.mute, channel.id, bob.user.id.uuidString, token: ann.token).status == 204)
            _ = try await bobSocket.next(.joined, as: JoinedFrame.self)
            try await bobSocket.send(.send(SendRequest(room: channel.id, clientMsgID: "b1", text: "let me speak")))
            let refused = try await bobSocket.next(.error, as: ErrorFrame.self)
            #expect(refused.code == .forbidden && refused.reason == "muted" && refused.ref == "b1")
            try await bobSocket.send(.react(ReactRequest(room: channel.id, clientMsgID: "b2", target: 1, emoji: "👍")))
            #expect(try await bobSocket.next(.error, as: ErrorFrame.self).reason == "muted")
            _ = try await server.api.send(.leave, channel.id, token: bob.token)
            _ = try await server.api.send(.join, channel.id, token: bob.token)
            let rooms = try await server.api.send(.rooms, token: bob.token).decode([RoomSummary].self)
            #expect(rooms.first { $0.id == channel.id }?.muted == true)
            try await bobSocket.send(.send(SendRequest(room: channel.id, clientMsgID: "b3", text: "now?")))
            #expect(try await bobSocket.next(.error, as: ErrorFrame.self).reason == "muted")
            #expect(
                try await server.api.send(.unmute, channel.id, bob.user.id.uuidString, token: ann.token).status == 204)
            _ = try await bobSocket.acked(.send(SendRequest(room: channel.id, clientMsgID: "b4", text: "thanks")))
            let texts = try await server.api.send(.history, channel.id, token: ann.token).decode(HistoryPage.self)
                .messages.filter { $0.eventKind == .message }.map(\.text)
            #expect(texts == ["thanks"])
        }
    }

    @Test("the owner hands the room over; a moderator deletes a member's message, not the owner's")
    func ownershipAndMessageRemoval() async throws {
        try await withTestServer { server in
            let room = try await server.moderatedGroup()
            let (ann, bob, carol) = (room.owner, room.moderator, room.member)
            let id = room.summary.id
            let carolSocket = try await server.modernClient(carol)
            _ = try await carolSocket.next(.resumed, as: ResumedFrame.self)
            let annSocket = try await server.modernClient(ann)
            _ = try await annSocket.next(.resumed, as: ResumedFrame.self)
            let carolSays = try await carolSocket.acked(.send(SendRequest(room: id, clientMsgID: "c1", text: "spam")))
            let annSays = try await annSocket.acked(.send(SendRequest(room: id, clientMsgID: "a1", text: "rules")))

            #expect(try await server.api.send(.deleteMessage, id, "\(carolSays.seq)", token: bob.token).status == 204)
            let removal = try await carolSocket.nextEvent(.delete)
            #expect(removal.target == carolSays.seq && removal.sender.name == "bob")
            let upward = try await server.api.send(.deleteMessage, id, "\(annSays.seq)", token: bob.token)
            #expect(upward.status == 403)
            let member = try await server.api.send(.deleteMessage, id, "\(annSays.seq)", token: carol.token)
            #expect(try member.status == 403 && member.decode(APIErrorBody.self).code == .notAllowed)
            let again = try await server.api.send(.deleteMessage, id, "\(carolSays.seq)", token: bob.token)
            #expect(try again.status == 400 && again.decode(APIErrorBody.self).code == .badTarget)

            #expect(
                try await server.api.send(
                    .setRole, id, carol.user.id.uuidString, json: RoleChange(role: "owner"), token: ann.token
                ).status == 204)
            let members = try await server.members(of: id, token: carol.token)
            #expect(members["carol"]?.role == .owner && members["ann"]?.role == .moderator)
            // The owner now is carol: ann no longer names moderators.
            let named = try await server.api.send(
                .setRole, id, room.other.user.id.uuidString, json: RoleChange(role: "moderator"), token: ann.token)
            #expect(try named.status == 403 && named.decode(APIErrorBody.self).code == .notAllowed)
        }
    }

    @Test(
        "bad input: a direct room, unknown and malformed users, a non-member, an unknown role, the lobby's owner; each a clear error, nothing stored"
    )
    func badInput() async throws {
        try await withTestServer { server in
            let room = try await server.moderatedGroup()
            let (ann, dan) = (room.owner, room.other)
            let id = room.summary.id
            let eve = try await server.register("eve")
            let dm = try await server.api.send(.directRoom, json: UsernameRequest(username: "eve"), token: ann.token)
                .decode(RoomSummary.self)
            let direct = try await server.api.send(.removeMember, dm.id, eve.user.id.uuidString, token: ann.token)
            #expect(try direct.status == 400 && direct.decode(APIErrorBody.self).code == .cannotModerate)
            let unknown = try await server.api.send(.removeMember, id, UUID().uuidString, token: ann.token)
            #expect(try unknown.status == 404 && unknown.decode(APIErrorBody.self).code == .unknownUser)
            let malformed = try await server.api.send(.ban, id, "not-an-id", token: ann.token)
            #expect(try malformed.status == 404 && malformed.decode(APIErrorBody.self).code == .unknownUser)
            let outsider = try await server.api.send(.removeMember, id, eve.user.id.uuidString, token: ann.token)
            #expect(try outsider.status == 404 && outsider.decode(APIErrorBody.self).code == .notFound)
            let role = try await server.api.send(
                .setRole, id, dan.user.id.uuidString, json: RoleChange(role: "king"), token: ann.token)
            #expect(try role.status == 400 && role.decode(APIErrorBody.self).code == .invalidRole)
            let noBody = try await server.api.send(.setRole, id, dan.user.id.uuidString, token: ann.token)
            #expect(noBody.status == 400)
            let noRoom = try await server.api.send(.mute, "no-such-room", dan.user.id.uuidString, token: ann.token)
            #expect(noRoom.status == 403)
            let root = try await server.registerAdministrator()
            let lobby = try await server.api.send(
                .setRole, "lobby", dan.user.id.uuidString, json: RoleChange(role: "owner"), token: root.token)
            #expect(try lobby.status == 400 && lobby.decode(APIErrorBody.self).code == .invalidRole)
            // An administrator names the lobby's moderators.
            #expect(
                try await server.api.send(
                    .setRole, "lobby", dan.user.id.uuidString, json: RoleChange(role: "moderator"), token: root.token
                ).status == 204)
            let events = try await server.api.send(.history, id, token: ann.token).decode(HistoryPage.self).messages
            #expect(events.map(\.eventKind) == [.role])
        }
    }
}

/// A group of four: ann its owner, bob a moderator, carol and dan members.
struct ModeratedGroup {
    let summary: RoomSummary
    let owner: AuthSession
    let moderator: AuthSession
    let member: AuthSession
    let other: AuthSession
}

extension TestServer {
    func moderatedGroup() async throws -> ModeratedGroup {
        let ann = try await self.register("ann")
        let bob = try await self.register("bob")
        let carol = try await self.register("carol")
        let dan = try await self.register("dan")
        let group = try await self.api.send(
            .createRoom, json: CreateRoomRequest(kind: "group", name: "Crew", members: ["bob", "carol", "dan"]),
            token: ann.token
        ).decode(RoomSummary.self)
        let named = try await self.api.send(
            .setRole, group.id, bob.user.id.uuidString, json: RoleChange(role: "moderator"), token: ann.token)
        #expect(named.status == 204)
        return ModeratedGroup(summary: group, owner: ann, moderator: bob, member: carol, other: dan)
    }

    /// The members of a room by username.
    func members(of room: String, token: String) async throws -> [String: RoomMemberPayload] {
        let members = try await self.api.send(.members, room, token: token).decode([RoomMemberPayload].self)
        return Dictionary(uniqueKeysWithValues: members.map { ($0.profile.username, $0) })
    }
}
