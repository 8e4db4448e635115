import ChatCore
import ChatProtocol
import Foundation
import Vapor

/// `/api/v1/rooms` and `/api/v1/dms`: my rooms, public channels, creating, joining, leaving, inviting, direct rooms,
/// and history pages.
///
/// A room the caller may not see answers `403 forbidden` whether it exists or not, so nothing leaks.
struct RoomsController: Sendable {
    let directory: any RoomDirectory
    let accounts: any AccountStore
    let messages: any MessageStore
    let hub: Hub
    let summaries: RoomSummaries
    let sessions: SessionRegistry
    /// New groups and channels per account: 10 at once, then one a minute.
    let creationLimiter = AttemptLimiter(clock: ContinuousClock(), burst: 10, refill: .seconds(60))
    /// Renames per account: 10 at once, then one every 10 seconds (each one is an event every member receives).
    let renameLimiter = AttemptLimiter(clock: ContinuousClock(), burst: 10, refill: .seconds(10))

    static let forbidden = APIError(status: .forbidden, code: .forbidden, message: RoomAccessDenied.forbiddenMessage)

    func register(on authenticated: any RoutesBuilder) {
        let rooms = authenticated.grouped("rooms")
        rooms.get(use: self.myRooms)
        rooms.post(use: self.create)
        rooms.get("public", use: self.publicChannels)
        rooms.patch(":room", use: self.rename)
        rooms.post(":room", "join", use: self.join)
        rooms.post(":room", "leave", use: self.leave)
        rooms.post(":room", "invite", use: self.invite)
        rooms.get(":room", "messages", use: self.history)
        rooms.get(":room", "reads", use: self.reads)
        rooms.get(":room", "members", use: self.members)
        authenticated.post("dms", use: self.directRoom)
    }

    /// `GET /rooms` → my rooms, most recent activity first.
    @Sendable func myRooms(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        var summaries: [RoomSummary] = []
        for membership in try await self.directory.memberships(of: me.id) {
            summaries.append(try await self.summaries.summary(of: membership.room, for: me.id, lastReadSeq: membership.lastReadSeq))
        }
        summaries.sort { ($0.lastMessage?.date ?? 0, $0.id) > ($1.lastMessage?.date ?? 0, $1.id) }
        return .json(summaries)
    }

    /// `POST /rooms` `{kind, name, members?}` → 201 the new room; the creator and the named users are members.
    @Sendable func create(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        let body = try request.content.decode(CreateRoomRequest.self)
        guard let kind = RoomKind(rawValue: body.kind), kind != .direct else {
            throw APIError.badRequest(.invalidKind, "A room is a \"channel\" or a \"group\"; direct rooms come from POST /dms.")
        }
        guard let name = AccountRules.normalizedDisplayName(body.name) else {
            throw APIError.badRequest(.invalidName, "A room name is 1 to 64 characters without control characters.")
        }
        if let wait = self.creationLimiter.attempt([me.id.uuidString]) {
            throw APIError.rateLimited(.roomCreation, "You created many rooms lately; try again in", wait)
        }
        var members = [me.id]
        for username in body.members ?? [] {
            members.append(try await self.account(named: username).id)
        }
        let room = RoomInfo(id: RoomID(UUID().uuidString), kind: kind, name: name, createdBy: me.id)
        try await self.directory.create(room, members: members)
        await self.announceJoined(members, to: room.id)
        return .json(try await self.summaries.summary(of: room, for: me.id, lastReadSeq: 0), status: .created)
    }

    /// `GET /rooms/public` → every channel, with member counts and whether I am in it.
    @Sendable func publicChannels(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        let mine = Set(try await self.directory.memberships(of: me.id).map(\.room.id))
        let channels = try await self.directory.channels()
            .map { ChannelSummary(id: $0.room.id.rawValue, name: $0.room.name ?? "", members: $0.members, joined: mine.contains($0.room.id)) }
            .sorted { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) }
        return .json(channels)
    }

    /// `POST /rooms/{id}/join` → the room; only channels can be joined this way.
    @Sendable func join(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        guard let room = try await self.directory.room(try Self.roomID(request)), room.kind == .channel else { throw Self.forbidden }
        try await self.directory.add(me.id, to: room.id)
        await self.announceJoined([me.id], to: room.id)
        return .json(try await self.summary(of: room, for: me))
    }

    /// `POST /rooms/{id}/leave` → 204.
    @Sendable func leave(_ request: Request) async throws -> HTTPStatus {
        let me = try request.authenticated.account
        let room = try await self.visibleRoom(request, for: me)
        try await self.directory.remove(me.id, from: room.id)
        // Open connections of this account stop receiving the room at once.
        try await self.hub.room(room.id).evict(me.id)
        for worker in self.sessions.workers(of: me.id) {
            await worker.unfollow(room.id)
        }
        return .noContent
    }

    /// `PATCH /rooms/{id}` `{name}` → the summary with the new name. Any member renames a group; only its creator
    /// renames a channel, which anyone can join. The rename is an event of the room (PROTOCOL.md §9.1), so every
    /// member's connections receive it in order, and it is replayed and paged like a message. The same name
    /// again stores nothing.
    @Sendable func rename(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        let room = try await self.visibleRoom(request, for: me)
        guard let name = AccountRules.normalizedDisplayName(try request.content.decode(RenameRoomRequest.self).name) else {
            throw APIError.badRequest(.invalidName, "A room name is 1 to 64 characters without control characters.")
        }
        switch room.kind {
        case .direct:
            throw APIError.badRequest(.cannotRename, "A direct room is named after the other member.")
        case .channel where room.createdBy != me.id:
            let reason = room.createdBy == nil ? "No one created this channel (the lobby), so no one renames it." : "Only the channel's creator may rename it."
            throw APIError(status: .forbidden, code: .notAllowed, message: reason)
        case .channel, .group:
            break
        }
        if name != room.name {
            if let wait = self.renameLimiter.attempt([me.id.uuidString]) {
                throw APIError.rateLimited(.rename, "You renamed rooms often lately; try again in", wait)
            }
            let draft = MessageDraft(sender: Sender(name: me.username, id: me.id), body: .rename(name: name))
            let hubRoom = try await self.hub.room(room.id)
            _ = try await withCheckedThrowingContinuation { continuation in
                hubRoom.submit(draft) { continuation.resume(with: $0) }
            }
        }
        return .json(try await self.summary(of: RoomInfo(id: room.id, kind: room.kind, name: name, createdBy: room.createdBy), for: me))
    }

    /// `POST /rooms/{id}/invite` `{username}` → 204; members of a channel or group add someone.
    @Sendable func invite(_ request: Request) async throws -> HTTPStatus {
        let me = try request.authenticated.account
        let room = try await self.visibleRoom(request, for: me)
        guard room.kind != .direct else {
            throw APIError.badRequest(.cannotInvite, "A direct room always has exactly two members.")
        }
        let invitee = try await self.account(named: request.content.decode(UsernameRequest.self).username)
        try await self.directory.add(invitee.id, to: room.id)
        await self.announceJoined([invitee.id], to: room.id)
        return .noContent
    }

    /// `GET /rooms/{id}/members?limit=N` → the members' profiles by username, at most `limit` (1–1000, default 200).
    @Sendable func members(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        let room = try await self.visibleRoom(request, for: me)
        let limit: Int = try request.integerQuery("limit", code: .invalidLimit) ?? 200
        guard (1...1000).contains(limit) else { throw APIError.badRequest(.invalidLimit, "limit is 1 to 1000.") }
        let ids = try await self.directory.members(of: room.id)
        return .json(try await self.accounts.accounts(ids: ids, limit: limit).map(\.profile))
    }

    /// `POST /dms` `{username}` → our direct room, created on first use.
    @Sendable func directRoom(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        let peer = try await self.account(named: request.content.decode(UsernameRequest.self).username)
        guard peer.id != me.id else {
            throw APIError.badRequest(.invalidPeer, "A direct room is with someone else.")
        }
        let room = try await self.directory.directRoom(between: me.id, and: peer.id)
        await self.announceJoined([me.id, peer.id], to: room.id)
        return .json(try await self.summary(of: room, for: me))
    }

    /// `GET /rooms/{id}/messages?before=SEQ&limit=N` → one page of history, oldest first, with `hasMore`.
    @Sendable func history(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        let room = try Self.roomID(request)
        let limit: Int? = try request.integerQuery("limit", code: .invalidLimit)
        let before: Int64? = try request.integerQuery("before", code: .invalidBefore)
        let history = History(access: RoomAccess(directory: self.directory), messages: self.messages)
        do {
            return .json(try await history.page(of: room, for: me.id, before: before, limit: limit))
        } catch {
            switch error {
            case .badLimit: throw APIError.badRequest(.invalidLimit, "limit is \(History.limits.lowerBound) to \(History.limits.upperBound).")
            case .denied(let denied): throw denied
            case .unavailable(let failure):
                request.logger.error("history could not be read: \(String(reflecting: failure))")
                throw APIError.unavailable
            }
        }
    }

    /// `GET /rooms/{id}/reads` → how far each member has read, as the `receipt` frames that moved them there
    /// (PROTOCOL.md §8.5): what a client that was away needs to show "read by" again.
    @Sendable func reads(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        let room = try await self.visibleRoom(request, for: me)
        let positions = try await self.directory.readPositions(in: room.id)
            .map { ReceiptFrame(room: room.id.rawValue, user: $0.user, seq: $0.seq) }
            .sorted { ($0.seq, $0.user.uuidString) > ($1.seq, $1.user.uuidString) }
        return .json(positions)
    }

    /// Tells every open connection of these users that they are in the room now, so they follow it at once
    /// (PROTOCOL.md §9.6). Connections that already follow it ignore this.
    private func announceJoined(_ users: [UUID], to room: RoomID) async {
        for user in users {
            for worker in self.sessions.workers(of: user) {
                await worker.follow(room)
            }
        }
    }

    /// The room's summary as `me` sees it, from where I have read.
    private func summary(of room: RoomInfo, for me: Account) async throws -> RoomSummary {
        let lastRead = try await self.directory.memberships(of: me.id).first { $0.room.id == room.id }?.lastReadSeq ?? 0
        return try await self.summaries.summary(of: room, for: me.id, lastReadSeq: lastRead)
    }

    /// The account called `username`, or `404 unknown_user`.
    private func account(named username: String) async throws -> Account {
        guard let account = try await self.accounts.account(username: username) else {
            throw APIError(status: .notFound, code: .unknownUser, message: "No user is called \(username).")
        }
        return account
    }

    private static func roomID(_ request: Request) throws -> RoomID {
        guard let raw = request.parameters.get("room"), !raw.isEmpty, raw.count <= 64 else { throw Self.forbidden }
        return RoomID(raw)
    }

    /// The room of the request's path, if the caller is a member; otherwise ``forbidden`` (``RoomAccess``).
    private func visibleRoom(_ request: Request, for me: Account) async throws -> RoomInfo {
        let id = try Self.roomID(request)
        try await RoomAccess(directory: self.directory).requireMember(me.id, of: id)
        guard let room = try await self.directory.room(id) else { throw Self.forbidden }
        return room
    }
}
