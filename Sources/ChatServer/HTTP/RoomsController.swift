import ChatCore
import ChatProtocol
import ChatUseCases
import Foundation
import Vapor

/// `/api/v1/rooms` and `/api/v1/dms`: my rooms, public channels, creating, joining, leaving, inviting, direct rooms,
/// and history pages.
///
/// A room the caller may not see answers `403 forbidden` whether it exists or not, so nothing leaks. The rules live
/// in the use cases (``RoomMembership``, ``RenameRoom``, ``History``, ``Reads``); this maps HTTP onto them.
struct RoomsController: Sendable {
    let summaries: RoomSummaries
    let membership: RoomMembership
    let renameRoom: RenameRoom
    let history: History
    let reads: Reads
    let postMessage: PostMessage
    let preferences: RoomPreferences
    let removePreview: RemovePreview

    static let forbidden = APIError(status: .forbidden, code: .forbidden, message: RoomAccessDenied.forbiddenMessage)

    func register(on authenticated: any RoutesBuilder) {
        authenticated.on(.rooms, use: self.myRooms)
        authenticated.on(.createRoom, use: self.create)
        authenticated.on(.publicRooms, use: self.publicChannels)
        authenticated.on(.renameRoom, use: self.rename)
        authenticated.on(.join, use: self.join)
        authenticated.on(.leave, use: self.leave)
        authenticated.on(.invite, use: self.invite)
        authenticated.on(.history, use: self.historyPage)
        authenticated.on(.postMessage, use: self.send)
        authenticated.on(.forward) { request in
            let me = try request.authenticated.account
            return Self.answer(
                try await self.postMessage.forward(
                    try request.content.decode(ForwardRequest.self), to: try Self.roomID(request), as: me.sender))
        }
        authenticated.on(.pin) { request in
            try await self.preferences.setPinned(
                true, in: try Self.roomID(request), for: try request.authenticated.account.id)
            return HTTPStatus.noContent
        }
        authenticated.on(.unpin) { request in
            try await self.preferences.setPinned(
                false, in: try Self.roomID(request), for: try request.authenticated.account.id)
            return HTTPStatus.noContent
        }
        authenticated.on(.markUnread) { request in
            try await self.preferences.setMarkedUnread(
                true, in: try Self.roomID(request), for: try request.authenticated.account.id)
            return HTTPStatus.noContent
        }
        authenticated.on(.clearUnread) { request in
            try await self.preferences.setMarkedUnread(
                false, in: try Self.roomID(request), for: try request.authenticated.account.id)
            return HTTPStatus.noContent
        }
        authenticated.on(.draft) { request in
            try await self.preferences.setDraft(
                try request.content.decode(DraftRequest.self), in: try Self.roomID(request),
                for: try request.authenticated.account.id)
            return HTTPStatus.noContent
        }
        authenticated.on(.removePreview) { request in
            guard let seq = request.parameters.get("seq").flatMap(Int64.init), seq > 0 else {
                throw APIError.badRequest(.badTarget, "seq must be a message's sequence number.")
            }
            try await self.removePreview(
                seq, in: try Self.roomID(request), by: try request.authenticated.account.sender)
            return HTTPStatus.noContent
        }
        authenticated.on(.reads, use: self.readPositions)
        authenticated.on(.members, use: self.members)
        authenticated.on(.directRoom, use: self.directRoom)
        authenticated.on(.notifications) { request in
            let me = try request.authenticated.account
            let room = try await self.membership.setNotifications(
                try request.content.decode(NotificationLevelRequest.self).level, in: try Self.roomID(request),
                for: me.id)
            return Response.json(try await self.summary(of: room, for: me))
        }
    }

    /// `GET /rooms` → my rooms, most recent activity first.
    @Sendable func myRooms(_ request: Request) async throws -> Response {
        .json(try await self.summaries.myRooms(for: try request.authenticated.account.id))
    }

    /// `POST /rooms` `{kind, name, members?}` → 201 the new room; the creator and the named users are members.
    @Sendable func create(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        let body = try request.content.decode(CreateRoomRequest.self)
        let room = try await self.membership.create(
            kind: body.kind, name: body.name, members: body.members ?? [], by: me.id)
        return .json(try await self.summaries.summary(of: room, for: me.id, lastReadSeq: 0), status: .created)
    }

    /// `GET /rooms/public` → every channel, with member counts and whether I am in it.
    @Sendable func publicChannels(_ request: Request) async throws -> Response {
        .json(try await self.summaries.publicChannels(for: try request.authenticated.account.id))
    }

    /// `POST /rooms/{id}/join` → the room; only channels can be joined this way.
    @Sendable func join(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        let room = try await self.membership.join(try Self.roomID(request), user: me.sender)
        return .json(try await self.summary(of: room, for: me))
    }

    /// `POST /rooms/{id}/leave` → 204.
    @Sendable func leave(_ request: Request) async throws -> HTTPStatus {
        let me = try request.authenticated.account
        try await self.membership.leave(try Self.roomID(request), user: me.sender)
        return .noContent
    }

    /// `PATCH /rooms/{id}` `{name}` → the summary with the new name (``RenameRoom``).
    @Sendable func rename(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        let id = try Self.roomID(request)
        let name = try request.content.decode(RenameRoomRequest.self).name
        let room = try await self.renameRoom(id, to: name, by: me.sender)
        return .json(try await self.summary(of: room, for: me))
    }

    /// `POST /rooms/{id}/invite` `{username}` → 204; members of a channel or group add someone.
    @Sendable func invite(_ request: Request) async throws -> HTTPStatus {
        let me = try request.authenticated.account
        let id = try Self.roomID(request)
        try await self.membership.invite(
            request.content.decode(UsernameRequest.self).username, to: id, by: me.sender)
        return .noContent
    }

    /// `GET /rooms/{id}/members?limit=N` → the members' profiles by username, at most `limit` (1–1000, default 200).
    @Sendable func members(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        let id = try Self.roomID(request)
        let limit: Int? = try request.integerQuery("limit", code: .invalidLimit)
        return .json(try await self.membership.members(of: id, for: me.id, limit: limit))
    }

    /// `POST /dms` `{username}` → our direct room, created on first use.
    @Sendable func directRoom(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        let room = try await self.membership.directRoom(
            of: me.id, with: request.content.decode(UsernameRequest.self).username)
        return .json(try await self.summary(of: room, for: me))
    }

    /// `GET /rooms/{id}/messages?before=SEQ|after=SEQ|around=SEQ&limit=N` → one page of history, oldest first, with
    /// `hasMore` (and `hasNewer` after or around a message).
    @Sendable func historyPage(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        let room = try Self.roomID(request)
        let limit: Int? = try request.integerQuery("limit", code: .invalidLimit)
        let before: Int64? = try request.integerQuery("before", code: .invalidBefore)
        let after: Int64? = try request.integerQuery("after", code: .invalidPosition)
        let around: Int64? = try request.integerQuery("around", code: .invalidPosition)
        let positions = [
            before.map(History.Position.before), after.map(History.Position.after),
            around.map(History.Position.around),
        ].compactMap { $0 }
        guard positions.count <= 1 else {
            throw APIError.badRequest(.invalidPosition, "Give one of before, after and around.")
        }
        // A `seq` is never negative, and far below the top of Int64, where the page's bounds would overflow.
        guard [after, around].allSatisfy({ ($0 ?? 0) >= 0 && ($0 ?? 0) < 1 << 62 }) else {
            throw APIError.badRequest(.invalidPosition, "after and around are a message's seq.")
        }
        do {
            return .json(
                try await self.history.page(of: room, for: me.id, at: positions.first ?? .newest, limit: limit))
        } catch {
            switch error {
            case .badLimit:
                throw APIError.badRequest(
                    .invalidLimit, "limit is \(History.limits.lowerBound) to \(History.limits.upperBound).")
            case .denied(let denied): throw denied
            case .unavailable(let failure):
                throw StoreUnavailable("history could not be read", underlying: failure)
            }
        }
    }

    /// `POST /rooms/{id}/messages {"text","clientMsgID"}` → `201` with the ack; a retry of the same `clientMsgID` →
    /// `200` with the original's.
    @Sendable func send(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        let body = try request.content.decode(PostMessageRequest.self)
        let outcome = try await self.postMessage(body, to: try Self.roomID(request), as: me.sender)
        return Self.answer(outcome)
    }

    /// A send over HTTP answered: `201` with the ack, or `200` with the original's for a retry.
    static func answer(_ outcome: PostMessage.Outcome) -> Response {
        let (status, message): (HTTPResponseStatus, StoredMessage) =
            switch outcome {
            case .created(let message): (.created, message)
            case .repeated(let message): (.ok, message)
            }
        let ack = AckFrame(
            clientMsgID: message.clientMsgID ?? "", room: message.room.rawValue, seq: message.seq,
            id: message.id, date: message.date.milliseconds)
        return .json(ack, status: status)
    }

    /// `GET /rooms/{id}/reads` → how far each member has read, as the `receipt` frames that moved them there
    /// (PROTOCOL.md §8.5).
    @Sendable func readPositions(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        return .json(try await self.reads.positions(in: try Self.roomID(request), for: me.id))
    }

    /// The room's summary as `me` sees it, from where I have read.
    private func summary(of room: RoomInfo, for me: Account) async throws -> RoomSummary {
        try await self.summaries.summary(of: room, for: me.id)
    }

    static func roomID(_ request: Request) throws -> RoomID {
        guard let raw = request.parameters.get("room"), !raw.isEmpty, raw.count <= 64 else { throw Self.forbidden }
        return RoomID(raw)
    }
}
