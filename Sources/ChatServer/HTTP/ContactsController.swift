import ChatCore
import ChatProtocol
import ChatUseCases
import Foundation
import Vapor

/// `/api/v1/me/contacts` (PROTOCOL.md §6.4): my contacts, adding and removing the ones I add by hand.
struct ContactsController: Sendable {
    let contacts: Contacts

    func register(on authenticated: any RoutesBuilder) {
        authenticated.on(.contacts) { request in
            Response.json(try await self.contacts.list(for: try request.authenticated.account.id))
        }
        authenticated.on(.addContact) { request in
            Response.json(
                try await self.contacts.add(
                    try request.content.decode(UsernameRequest.self), for: try request.authenticated.account),
                status: .created)
        }
        authenticated.on(.removeContact) { request in
            try await self.contacts.remove(
                request.parameters.get("id").flatMap(UUID.init(uuidString:)),
                for: try request.authenticated.account.id)
            return HTTPStatus.noContent
        }
    }
}
