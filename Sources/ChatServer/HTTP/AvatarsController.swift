import ChatCore
import ChatProtocol
import ChatUseCases
import Foundation
import Vapor

/// Pictures (PROTOCOL.md §6.5, §7.7): `PUT`/`DELETE /me/avatar`, `PUT`/`DELETE /rooms/{id}/avatar` with the image
/// as the body, and `GET /avatars/{id}`, served to anyone and cached for good (the address changes with the picture).
struct AvatarsController: Sendable {
    let avatars: Avatars
    let attachments: Attachments
    /// Where this node receives uploads, and the threads that write them (as ``AttachmentsController``).
    let receivingDirectory: String
    let threadPool: NIOThreadPool

    func register(on api: any RoutesBuilder, authenticated: any RoutesBuilder) {
        authenticated.on(.setMyAvatar, body: .stream) { request in
            let account = try request.authenticated.account
            return Response.json(
                try await self.receiving(request) { try await self.avatars.setMine($0, account: account) })
        }
        authenticated.on(.removeMyAvatar) { request in
            Response.json(try await self.avatars.removeMine(account: try request.authenticated.account))
        }
        authenticated.on(.setRoomAvatar, body: .stream) { request in
            let (room, me) = (try RoomsController.roomID(request), try request.authenticated.account.id)
            return Response.json(try await self.receiving(request) { try await self.avatars.setRoom(room, $0, by: me) })
        }
        authenticated.on(.removeRoomAvatar) { request in
            try await self.avatars.removeRoom(
                try RoomsController.roomID(request), by: try request.authenticated.account.id)
            return HTTPStatus.noContent
        }
        api.on(.avatar) { request in
            let stored = try await self.avatars.picture(request.parameters.get("id").flatMap(UUID.init(uuidString:)))
            let response = try await AttachmentsController.serve(stored, of: self.attachments, to: request)
            response.headers.replaceOrAdd(name: .cacheControl, value: "public, max-age=31536000, immutable")
            return response
        }
    }

    /// Receives the body (at most ``Avatars/maxBytes``) and hands it to `use`; the temporary file is gone afterwards
    /// whatever happened.
    private func receiving<Result: Sendable>(
        _ request: Request, _ use: (Avatars.Received) async throws -> Result
    ) async throws -> Result {
        let received = try await AttachmentsController.receive(
            request, into: self.receivingDirectory, threadPool: self.threadPool, maxBytes: Avatars.maxBytes)
        defer { try? FileManager.default.removeItem(atPath: received.temporaryPath) }
        return try await use(
            Avatars.Received(
                upload: Attachments.Upload(
                    name: received.name, size: received.size, prefix: received.prefix, declaredImage: false),
                path: received.temporaryPath, sha256: received.sha256))
    }
}
