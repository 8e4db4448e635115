import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// `--max-pending-requests`: a node refuses what it cannot start on at once instead of queueing it (PROTOCOL.md §6.1,
/// OPERATIONS.md "When every client comes back at once").
@Suite("A busy node answers 503 at once rather than queueing")
struct LoadSheddingTests {
    @Test(
        "a request that finds --max-pending-requests others running gets 503 with Retry-After: 1 at once, a WebSocket upgrade too; once they finish, requests are served again"
    )
    func shedsWhatItCannotStart() async throws {
        try await withTestServer({ $0.maxPendingRequests = 2 }) { server in
            let ann = try await server.register("ann")
            // Two uploads whose bodies are still on their way keep two handlers running.
            var uploads: [LineClient] = []
            for _ in 0..<2 {
                let upload = try await LineClient.connect(host: server.host, port: server.httpPort)
                try await upload.write(
                    "POST /api/v1/attachments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ann.token)\r\n"
                        + "Content-Type: application/octet-stream\r\nContent-Length: 1000\r\n\r\n"
                        + String(repeating: "a", count: 100))
                uploads.append(upload)
            }
            var busy: APIClient.Reply?
            try await eventually("a third request is refused") {
                let reply = try await server.api.send(.GET, "/me", token: ann.token)
                busy = reply.status == 503 ? reply : nil
                return busy != nil
            }
            #expect(busy?.headers.first(name: "Retry-After") == "1")
            #expect(try busy?.decode(APIErrorBody.self).code == .unavailable)
            // The web client's files and the modern socket's upgrade are refused alike.
            #expect(try await APIClient(baseURL: "http://\(server.host):\(server.httpPort)").get("/").status == 503)
            await #expect(throws: TestClientError.self) {
                _ = try await WebSocketTestClient.connect(
                    host: server.host, port: server.httpPort, path: "/api/v1/ws?token=\(ann.token)")
            }
            let refused = try await MetricsScrape.take(server).total(
                "swiftchat_rate_limited_total", "kind=\"requests\"")
            #expect((refused ?? 0) >= 3)

            // The uploads end (cut off): their handlers finish, and the node serves everyone again.
            for upload in uploads { await upload.close() }
            try await eventually("requests are served again") {
                try await server.api.send(.GET, "/me", token: ann.token).status == 200
            }
            let socket = try await server.modernClient(ann)
            _ = try await socket.next(.resumed, as: ResumedFrame.self)
        }
    }
}
