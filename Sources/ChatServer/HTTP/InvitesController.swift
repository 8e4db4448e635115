import ChatCore
import ChatProtocol
import ChatUseCases
import Vapor

/// `/api/v1/invites` (PROTOCOL.md §10.4): create, list and revoke invitations to register. The rules are the
/// ``Invitations`` use case's.
struct InvitesController: Sendable {
    let invitations: Invitations

    func register(on authenticated: any RoutesBuilder) {
        authenticated.on(.createInvite, use: self.create)
        authenticated.on(.invites, use: self.list)
        authenticated.on(.deleteInvite, use: self.revoke)
    }

    /// `POST /invites` → 201 the invitation with its link.
    @Sendable func create(_ request: Request) async throws -> Response {
        let caller = try request.authenticated.account
        let body = try request.content.decode(InvitationRequest.self)
        let invitation = try await self.invitations.create(
            body, by: .account(caller, from: request.clientAddress), isAdministrator: caller.isAdministrator)
        return .json(invitation, status: .created)
    }

    /// `GET /invites` → every invitation (administrators) or mine, newest first.
    @Sendable func list(_ request: Request) async throws -> Response {
        .json(try await self.invitations.list(for: try request.authenticated.account))
    }

    /// `DELETE /invites/{code}` → 204; 404 for one that is not there or not mine.
    @Sendable func revoke(_ request: Request) async throws -> HTTPStatus {
        let caller = try request.authenticated.account
        try await self.invitations.revoke(
            code: request.parameters.get("code") ?? "", by: .account(caller, from: request.clientAddress),
            isAdministrator: caller.isAdministrator)
        return .noContent
    }
}
