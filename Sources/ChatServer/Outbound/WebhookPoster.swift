import AsyncHTTPClient
import ChatProtocol
import ChatUseCases
import Foundation
import NIOCore
import NIOHTTP1

/// Sends a bot's webhook its event (PROTOCOL.md §9.13) through the guarded client, and reads the reply it answers
/// with: a `text/plain` body, or JSON `{"text"}`.
struct WebhookPoster: Sendable {
    let http: GuardedHTTPClient

    /// How long a bot's webhook has to answer.
    static let timeout: TimeAmount = .seconds(7)
    /// What is read of an answer.
    static let maxAnswerBytes = 64 << 10

    func post(_ body: Data, signature: String, to url: String) async throws -> OutgoingWebhooks.Answer {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "SwiftChat/\(SwiftChatVersion.current)")
        request.headers.add(name: "X-SwiftChat-Signature", value: signature)
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await self.http.execute(
            request, timeout: Self.timeout, maxBodyBytes: Self.maxAnswerBytes)
        guard response.status == .ok else { return .init(status: Int(response.status.code), reply: nil) }
        let type = response.headers.first(name: "Content-Type")?.lowercased() ?? ""
        let bytes = Data(response.body.readableBytesView)
        let reply: String? =
            if type.hasPrefix("text/plain") {
                String(decoding: bytes, as: UTF8.self)
            } else if type.hasPrefix("application/json") {
                (try? JSONDecoder().decode(OutgoingWebhookReply.self, from: bytes))?.text
            } else {
                nil
            }
        return .init(status: 200, reply: reply)
    }
}
