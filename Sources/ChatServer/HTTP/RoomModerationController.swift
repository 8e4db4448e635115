import ChatCore
import ChatProtocol
import ChatUseCases
import Vapor

/// `/api/v1/rooms/{id}/…` for a room's moderators, its owner and administrators (PROTOCOL.md §7.3): roles,
/// removing, banning and muting members, and deleting messages. The rules are ``RoomModeration``'s.
struct RoomModerationController: Sendable {
    let moderation: RoomModeration

    func register(on authenticated: any RoutesBuilder) {
        authenticated.on(.setRole, use: self.setRole)
        authenticated.on(.removeMember) { request in
            try await self.moderation.remove(
                try Self.user(request), from: try RoomsController.roomID(request), by: try Self.caller(request),
                from: request.clientAddress)
            return HTTPStatus.noContent
        }
        authenticated.on(.ban) { request in
            try await self.moderation.ban(
                try Self.user(request), in: try RoomsController.roomID(request), by: try Self.caller(request),
                from: request.clientAddress)
            return HTTPStatus.noContent
        }
        authenticated.on(.unban) { request in
            try await self.moderation.unban(
                try Self.user(request), in: try RoomsController.roomID(request), by: try Self.caller(request),
                from: request.clientAddress)
            return HTTPStatus.noContent
        }
        authenticated.on(.mute) { try await self.mute($0, true) }
        authenticated.on(.unmute) { try await self.mute($0, false) }
        authenticated.on(.bans) { request in
            Response.json(
                try await self.moderation.bans(
                    in: try RoomsController.roomID(request), for: try Self.caller(request)))
        }
        authenticated.on(.deleteMessage, use: self.deleteMessage)
    }

    /// `PUT /rooms/{id}/members/{user}/role` `{"role"}` → 204.
    @Sendable func setRole(_ request: Request) async throws -> HTTPStatus {
        let body = try request.content.decode(RoleChange.self)
        try await self.moderation.setRole(
            body.role, of: try Self.user(request), in: try RoomsController.roomID(request),
            by: try Self.caller(request),
            from: request.clientAddress)
        return .noContent
    }

    /// `DELETE /rooms/{id}/messages/{seq}` → 204; members see a `delete` event sent by the moderator.
    @Sendable func deleteMessage(_ request: Request) async throws -> HTTPStatus {
        let caller = try Self.caller(request)
        guard let seq = request.parameters.get("seq").flatMap(Int64.init), seq > 0 else {
            throw APIError.badRequest(.badTarget, "seq must be a message's sequence number.")
        }
        let room = try RoomsController.roomID(request)
        let recorded = try await self.moderation.removeMessage(seq, in: room, by: caller, from: request.clientAddress)
        if !recorded {
            request.logger.warning(
                "message \(seq) of \(room) was removed by \(caller.username); the audit log missed it")
        }
        return .noContent
    }

    private func mute(_ request: Request, _ muted: Bool) async throws -> HTTPStatus {
        try await self.moderation.mute(
            try Self.user(request), muted, in: try RoomsController.roomID(request), by: try Self.caller(request),
            from: request.clientAddress)
        return .noContent
    }

    private static func caller(_ request: Request) throws -> Account { try request.authenticated.account }

    /// The `{id}` of the account acted on; 404 `unknown_user` when it is not an id at all.
    private static func user(_ request: Request) throws -> UUID {
        guard let id = request.parameters.get("id").flatMap(UUID.init(uuidString:)) else {
            throw APIError(status: .notFound, code: .unknownUser, message: "No such user.")
        }
        return id
    }
}
