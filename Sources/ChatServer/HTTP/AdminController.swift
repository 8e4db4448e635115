import ChatCore
import ChatProtocol
import ChatUseCases
import Vapor

/// `/api/v1/admin` (PROTOCOL.md §10): the accounts and the audit log, for administrators only (403 `forbidden` for
/// anyone else). The rules are the ``Administration`` use case's; this maps HTTP onto it.
struct AdminController: Sendable {
    let administration: Administration
    let moderation: Moderation
    let roomModeration: RoomModeration
    let deletion: AccountDeletion

    func register(on authenticated: any RoutesBuilder) {
        authenticated.on(.adminUsers, use: self.users)
        authenticated.on(.adminUser) { request in
            try self.administration.requireAdministrator(try request.authenticated.account)
            return Response.json(
                try await self.administration.user(.id(request.parameters.get("id").flatMap(UUID.init(uuidString:)))))
        }
        authenticated.on(.adminDeactivate) { try await self.apply(.deactivate(at: Date()), $0) }
        authenticated.on(.adminReactivate) { try await self.apply(.reactivate, $0) }
        authenticated.on(.adminGrant) { try await self.apply(.grantAdministrator, $0) }
        authenticated.on(.adminRevoke) { try await self.apply(.revokeAdministrator, $0) }
        authenticated.on(.adminAudit, use: self.audit)
        authenticated.on(.adminPasswordReset, use: self.passwordReset)
        authenticated.on(.adminRooms, use: self.rooms)
        authenticated.on(.adminDeleteMessage, use: self.deleteMessage)
        authenticated.on(.adminDeleteUser, use: self.deleteUser)
        authenticated.on(.adminDeleteRoom) { request in
            try await self.roomModeration.deleteRoom(
                try RoomsController.roomID(request), by: try request.authenticated.account,
                from: request.clientAddress)
            return HTTPStatus.noContent
        }
    }

    /// `DELETE /admin/users/{id}` → 204: the account is deleted as its owner would delete it; asked again, it
    /// finishes a deletion that stopped halfway.
    @Sendable func deleteUser(_ request: Request) async throws -> HTTPStatus {
        let caller = try request.authenticated.account
        try self.administration.requireAdministrator(caller)
        try await self.deletion.delete(
            .id(request.parameters.get("id").flatMap(UUID.init(uuidString:))),
            by: .account(caller, from: request.clientAddress))
        return .noContent
    }

    /// `DELETE /admin/rooms/{room}/messages/{seq}` → 204; the members see it removed (a `delete` event sent by the
    /// administrator). 404 for an unknown room, 400 `bad_target` for no such message or one deleted already.
    @Sendable func deleteMessage(_ request: Request) async throws -> HTTPStatus {
        let caller = try request.authenticated.account
        try self.administration.requireAdministrator(caller)
        guard let seq = request.parameters.get("seq").flatMap(Int64.init), seq > 0 else {
            throw APIError.badRequest(.badTarget, "seq must be a message's sequence number.")
        }
        let room = RoomID(request.parameters.get("room") ?? "")
        let recorded = try await self.moderation.removeMessage(
            seq, in: room, by: .account(caller, from: request.clientAddress))
        if !recorded {
            request.logger.warning(
                "message \(seq) of \(room) was removed by \(caller.username); the audit log missed it")
        }
        return .noContent
    }

    /// `GET /admin/rooms?after=&limit=` → a page of every room, by id.
    @Sendable func rooms(_ request: Request) async throws -> Response {
        try self.administration.requireAdministrator(try request.authenticated.account)
        let page = try await self.administration.rooms(
            after: request.query[String.self, at: "after"],
            limit: try request.integerQuery("limit", code: .invalidLimit))
        return .json(page)
    }

    /// `POST /admin/users/{id}/password-reset` → 201 a one-time link for the account's owner.
    @Sendable func passwordReset(_ request: Request) async throws -> Response {
        let caller = try request.authenticated.account
        try self.administration.requireAdministrator(caller)
        let link = try await self.administration.passwordReset(
            for: .id(request.parameters.get("id").flatMap(UUID.init(uuidString:))),
            by: .account(caller, from: request.clientAddress))
        return .json(link, status: .created)
    }

    /// `GET /admin/users?query=&after=&limit=` → a page of every account, A–Z.
    @Sendable func users(_ request: Request) async throws -> Response {
        try self.administration.requireAdministrator(try request.authenticated.account)
        let page = try await self.administration.users(
            matching: request.query[String.self, at: "query"] ?? "", after: request.query[String.self, at: "after"],
            limit: try request.integerQuery("limit", code: .invalidLimit))
        return .json(page)
    }

    /// `POST /admin/users/{id}/…` → the account as it is now; 404 for an unknown id, 409 `last_administrator`.
    private func apply(_ change: AdministrativeChange, _ request: Request) async throws -> Response {
        let caller = try request.authenticated.account
        try self.administration.requireAdministrator(caller)
        let target = request.parameters.get("id").flatMap(UUID.init(uuidString:))
        let user = try await self.administration.apply(
            change, to: .id(target), by: .account(caller, from: request.clientAddress))
        return .json(user)
    }

    /// `GET /admin/audit?after=&limit=` → the audit log, oldest first.
    @Sendable func audit(_ request: Request) async throws -> Response {
        try self.administration.requireAdministrator(try request.authenticated.account)
        let page = try await self.administration.auditEntries(
            after: try request.integerQuery("after", code: .badRequest),
            limit: try request.integerQuery("limit", code: .invalidLimit))
        return .json(page)
    }
}
