import ChatCore
import ChatProtocol
import ChatServer
import ChatTestSupport
import Crypto
import Foundation
import NIOHTTP1
import Testing

/// Web Push subscriptions and the server's VAPID key (PROTOCOL.md §9.11), on SQLite and PostgreSQL.
@Suite("Web Push subscriptions")
struct PushSubscriptionTests {
    static func browserKeys() -> PushSubscriptionRequest.Keys {
        PushSubscriptionRequest.Keys(
            p256dh: P256.KeyAgreement.PrivateKey().publicKey.x963Representation.base64URL,
            auth: Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64URL)
    }

    @Test(
        "the VAPID key is made once and kept in the database; subscriptions are kept, replaced by endpoint, removed; at most ten"
    )
    func subscriptions() async throws {
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await TestServer.start(dataDirectory: directory) { $0.outboundAllow = [] }
        let ann = try await server.register("ann")
        let key = try await server.api.send(.pushKey, token: ann.token).decode(PushKeyPayload.self).publicKey
        #expect(
            try P256.Signing.PublicKey(x963Representation: #require(Data(base64URL: key))).x963Representation.count
                == 65)
        #expect(try await server.api.send(.pushKey).status == 401)

        let endpoint = "https://push.example.net/send/ann-phone"
        let subscribe = { (endpoint: String) in
            try await server.api.send(
                .subscribePush, json: PushSubscriptionRequest(endpoint: endpoint, keys: Self.browserKeys()),
                token: ann.token)
        }
        #expect(try await subscribe(endpoint).status == 201)
        #expect(try await subscribe(endpoint).status == 201)  // the same endpoint again: new keys, one subscription
        for index in 2...10 { #expect(try await subscribe("https://push.example.net/send/\(index)").status == 201) }
        let eleventh = try await subscribe("https://push.example.net/send/11")
        #expect(try eleventh.status == 400 && eleventh.decode(APIErrorBody.self).code == .tooManySubscriptions)
        let removed = try await server.api.send(
            .unsubscribePush, json: PushUnsubscribeRequest(endpoint: endpoint), token: ann.token)
        #expect(removed.status == 204)
        let again = try await server.api.send(
            .unsubscribePush, json: PushUnsubscribeRequest(endpoint: endpoint), token: ann.token)
        #expect(try again.status == 404 && again.decode(APIErrorBody.self).code == .notFound)
        #expect(try await subscribe("https://push.example.net/send/11").status == 201)

        // Another start on the same database signs with the same key.
        await server.stop()
        let restarted = try await TestServer.start(dataDirectory: directory)
        let session = try await restarted.api.send(
            .POST, "/login", json: LoginRequest(username: "ann", password: "correct horse")
        ).decode(AuthSession.self)
        #expect(
            try await restarted.api.send(.pushKey, token: session.token).decode(PushKeyPayload.self).publicKey == key)
        await restarted.stop()
    }

    @Test(
        "bad input: http or internal endpoints, endpoints over 1 KiB, keys that are not a P-256 point or a 16-byte secret; each a 400 with its code, nothing stored"
    )
    func badInput() async throws {
        try await withTestServer({ $0.outboundAllow = [AddressRange("127.0.0.0/8")!] }) { server in
            let ann = try await server.register("ann")
            func code(_ endpoint: String, _ keys: PushSubscriptionRequest.Keys = Self.browserKeys()) async throws
                -> ErrorCode?
            {
                let reply = try await server.api.send(
                    .subscribePush, json: PushSubscriptionRequest(endpoint: endpoint, keys: keys), token: ann.token)
                return reply.status == 201 ? nil : try reply.decode(APIErrorBody.self).code
            }
            for endpoint in [
                "http://push.example.net/x", "https://10.0.0.7/x", "https://[::1]/x", "https://169.254.169.254/x",
                "not a url", "https://push.example.net/" + String(repeating: "x", count: 1024),
            ] {
                #expect(try await code(endpoint) == .invalidEndpoint, "\(endpoint.prefix(40))")
            }
            let good = Self.browserKeys()
            let notAPoint = Data([4] + [UInt8](repeating: 1, count: 64)).base64URL
            for keys in [
                PushSubscriptionRequest.Keys(p256dh: notAPoint, auth: good.auth),
                PushSubscriptionRequest.Keys(p256dh: "short", auth: good.auth),
                PushSubscriptionRequest.Keys(p256dh: good.p256dh, auth: Data(repeating: 1, count: 15).base64URL),
                PushSubscriptionRequest.Keys(p256dh: good.p256dh, auth: "***"),
            ] {
                #expect(try await code("https://push.example.net/x", keys) == .invalidKey)
            }
            let garbled = try await server.api.send(
                .POST, "/push/subscriptions", raw: "{\"endpoint\":1}", token: ann.token)
            #expect(garbled.status == 400)
            // The allowed loopback may be plain http: the tests' own push receiver is.
            #expect(try await code("http://127.0.0.1:9/push") == nil)
            // Nothing else was kept: nine more fit under the limit of ten.
            for index in 1...9 { #expect(try await code("https://push.example.net/\(index)") == nil) }
            #expect(try await code("https://push.example.net/10") == .tooManySubscriptions)
        }
    }
}
