import AsyncHTTPClient
import ChatCore
import ChatServer
import ChatTestSupport
import Crypto
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOHTTP1
import NIOPosix
import Testing

/// The Web Push sender against a real HTTP push receiver on loopback (PROTOCOL.md §9.11): what a push service
/// receives, and what the sender does with each answer.
@Suite("Web Push sender")
struct WebPushSenderTests {
    /// The subscriptions the sender may delete, kept in memory: the port's contract, without a database.
    final class Subscriptions: PushSubscriptionStore, Sendable {
        let kept = NIOLockedValueBox<[PushSubscription]>([])

        func subscribe(_ subscription: PushSubscription, limit: Int) async throws -> Bool {
            self.kept.withLockedValue { $0.append(subscription) }
            return true
        }

        func unsubscribe(endpoint: String, of account: UUID) async throws -> Bool {
            self.kept.withLockedValue { kept in
                let before = kept.count
                kept.removeAll { $0.endpoint == endpoint && $0.account == account }
                return kept.count < before
            }
        }

        func subscriptions(of accounts: [UUID]) async throws -> [PushSubscription] {
            self.kept.withLockedValue { $0.filter { accounts.contains($0.account) } }
        }

        func vapidKey(orMake make: @Sendable () -> Data) async throws -> Data { make() }
    }

    /// A browser: its keys, and the subscription it hands the server.
    struct Browser {
        let key = P256.KeyAgreement.PrivateKey()
        let auth = Data((0..<16).map { _ in UInt8.random(in: 0...255) })

        func subscription(_ endpoint: String) -> PushSubscription {
            PushSubscription(
                account: UUID(), endpoint: endpoint, p256dh: self.key.publicKey.x963Representation.base64URL,
                auth: self.auth.base64URL)
        }
    }

    static let vapid = VAPID(key: P256.Signing.PrivateKey(), subject: "mailto:ops@example.org")

    static func sender(_ store: Subscriptions, maxQueuedBytes: Int = 1 << 20) -> WebPushSender {
        WebPushSender(
            http: GuardedHTTPClient(
                policy: OutboundPolicy(allowed: [AddressRange("127.0.0.0/8")!]),
                resolver: HostAddresses(pool: .singleton), eventLoops: MultiThreadedEventLoopGroup.singleton,
                logger: Logger(label: "push-test")),
            vapid: { Self.vapid }, store: store, logger: Logger(label: "push-test"), maxQueuedBytes: maxQueuedBytes)
    }

    @Test(
        "the push service receives the message encrypted for the browser, signed for its origin, with TTL, Urgency and Topic"
    )
    func delivered() async throws {
        let receiver = try await PushReceiver.start()
        let browser = Browser()
        let sender = Self.sender(Subscriptions())
        let payload = Data(#"{"room":"r","seq":3,"title":"ann","body":"hi"}"#.utf8)
        await sender.send(
            PushMessage(payload: payload, urgent: true, topic: "room-r"),
            to: browser.subscription(receiver.endpoint("a")))
        let request = try #require(await receiver.requests.next(timeout: .seconds(10)))
        #expect(request.path == "/push/a")
        #expect(request.headers.first(name: "Content-Encoding") == "aes128gcm")
        #expect(request.headers.first(name: "Urgency") == "high" && request.headers.first(name: "Topic") == "room-r")
        #expect(request.headers.first(name: "TTL") == "86400")
        let opened = try WebPushEncryption.decrypt(request.body, privateKey: browser.key, authSecret: browser.auth)
        #expect(opened == payload)

        let authorization = try #require(request.headers.first(name: "Authorization"))
        #expect(authorization.hasPrefix("vapid t=") && authorization.hasSuffix(", k=\(Self.vapid.publicKey)"))
        let token = authorization.dropFirst("vapid t=".count).prefix { $0 != "," }
        let parts = token.split(separator: ".").map(String.init)
        let claims = try JSONSerialization.jsonObject(with: #require(Data(base64URL: parts[1]))) as? [String: Any]
        #expect(claims?["aud"] as? String == "http://127.0.0.1:\(receiver.port)")
        #expect(claims?["sub"] as? String == "mailto:ops@example.org")
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: #require(Data(base64URL: parts[2])))
        #expect(Self.vapid.key.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
        await receiver.stop()
    }

    @Test("410 deletes the subscription; 429 is asked again after Retry-After, then delivered")
    func answers() async throws {
        let receiver = try await PushReceiver.start()
        let store = Subscriptions()
        let sender = Self.sender(store)
        let gone = Browser().subscription(receiver.endpoint("gone"))
        _ = try await store.subscribe(gone, limit: 10)
        receiver.script([.status(410)])
        await sender.send(PushMessage(payload: Data("x".utf8), urgent: false, topic: nil), to: gone)
        _ = try #require(await receiver.requests.next(timeout: .seconds(10)))
        try await eventually("the subscription is deleted") {
            try await store.subscriptions(of: [gone.account]).isEmpty
        }

        receiver.script([.status(429, retryAfter: 1), .status(201)])
        let busy = Browser().subscription(receiver.endpoint("busy"))
        await sender.send(PushMessage(payload: Data("y".utf8), urgent: false, topic: nil), to: busy)
        let first = try #require(await receiver.requests.next(timeout: .seconds(10)))
        let second = try #require(await receiver.requests.next(timeout: .seconds(10)))
        #expect(first.path == "/push/busy" && second.path == "/push/busy")
        await receiver.stop()
    }

    @Test("a push service that never answers holds one request per endpoint, and the queue stays within its bytes")
    func hangingReceiver() async throws {
        let receiver = try await PushReceiver.start()
        receiver.script([.hang])
        let sender = Self.sender(Subscriptions(), maxQueuedBytes: 4096)
        let subscription = Browser().subscription(receiver.endpoint("slow"))
        for index in 0..<200 {
            await sender.send(
                PushMessage(payload: Data(repeating: UInt8(index % 256), count: 200), urgent: false, topic: nil),
                to: subscription)
        }
        _ = try #require(await receiver.requests.next(timeout: .seconds(10)))
        #expect(await sender.waitingBytes <= 4096)
        // One request in flight for the endpoint: nothing else arrives while it hangs.
        #expect(await receiver.requests.next(timeout: .milliseconds(500)) == nil)
        await receiver.stop()
    }
}
