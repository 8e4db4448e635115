import ChatCore
import ChatProtocol
import ChatUseCases
import Vapor

/// `/api/v1/push` (PROTOCOL.md §9.11): the server's VAPID public key, and browsers' subscriptions.
struct PushController: Sendable {
    let subscriptions: PushSubscriptions

    func register(on authenticated: any RoutesBuilder) {
        authenticated.on(.pushKey) { _ in Response.json(PushKeyPayload(publicKey: self.subscriptions.publicKey)) }
        authenticated.on(.subscribePush) { request in
            try await self.subscriptions.subscribe(
                try request.content.decode(PushSubscriptionRequest.self), for: try request.authenticated.account.id)
            return HTTPStatus.created
        }
        authenticated.on(.unsubscribePush) { request in
            try await self.subscriptions.unsubscribe(
                try request.content.decode(PushUnsubscribeRequest.self).endpoint,
                for: try request.authenticated.account.id)
            return HTTPStatus.noContent
        }
    }
}
