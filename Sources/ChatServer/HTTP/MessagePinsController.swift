import ChatCore
import ChatProtocol
import ChatUseCases
import Foundation
import Vapor

/// `/api/v1/rooms/{id}/pins` and `/rooms/{id}/messages/{seq}/pin` (PROTOCOL.md §7.8): a room's pinned messages, and
/// pinning or unpinning one for everyone in it.
struct MessagePinsController: Sendable {
    let pins: MessagePins

    func register(on authenticated: any RoutesBuilder) {
        authenticated.on(.pinnedMessages) { request in
            let pinned = try await self.pins.list(
                in: try RoomsController.roomID(request), for: try request.authenticated.account.id)
            return Response.json(PinnedMessagesPayload(messages: pinned.map(\.payload)))
        }
        authenticated.on(.pinMessage) { request in
            try await self.set(true, request)
        }
        authenticated.on(.unpinMessage) { request in
            try await self.set(false, request)
        }
    }

    private func set(_ pinned: Bool, _ request: Request) async throws -> HTTPStatus {
        guard let seq = request.parameters.get("seq").flatMap(Int64.init), seq > 0 else {
            throw APIError.badRequest(.badTarget, "seq must be a message's sequence number.")
        }
        try await self.pins.set(
            pinned, seq, in: try RoomsController.roomID(request), by: try request.authenticated.account.sender)
        return .noContent
    }
}
