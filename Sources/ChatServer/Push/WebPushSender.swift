import AsyncHTTPClient
import ChatCore
import DequeModule
import Foundation
import Logging
import Metrics
import NIOCore
import NIOHTTP1
import NIOPosix

/// Sends Web Push messages (RFC 8030) to push services, encrypted for each subscription (RFC 8291) and signed with
/// the server's VAPID key (RFC 8292).
///
/// Bounded and honest: messages wait in one queue per endpoint, all of them together holding at most `maxQueuedBytes`
/// (past that the oldest message goes, counted as dropped); one request per endpoint at a time; a push service that
/// answers 429 or 5xx is asked again after its `Retry-After` (or 1, 2, 4 s), up to four tries; one that answers 404 or
/// 410 has forgotten the subscription, which is deleted; no request waits longer than 10 s.
public actor WebPushSender: PushSending {
    private struct Job {
        let subscription: PushSubscription
        let message: PushMessage
        var size: Int { self.message.payload.count + self.subscription.endpoint.utf8.count }
    }

    /// Every request goes through it: a push endpoint is an address a user gave.
    private let http: GuardedHTTPClient
    private let vapid: @Sendable () -> VAPID
    private let store: any PushSubscriptionStore
    private let logger: Logger
    private let maxQueuedBytes: Int
    private var queues: [String: Deque<Job>] = [:]
    /// Every queued job's endpoint, oldest first: what goes when the bytes run out.
    private var order: Deque<String> = []
    private var queuedBytes = 0
    private var sending: Set<String> = []

    static let timeout: TimeAmount = .seconds(10)
    static let tries = 4

    private let sent: Counter
    private let failed: Counter
    private let dropped: Counter
    private let removed: Counter

    /// `vapid` is asked at each send: the subject may be the public URL, known once the server listens.
    public init(
        http: GuardedHTTPClient, vapid: @escaping @Sendable () -> VAPID, store: any PushSubscriptionStore,
        logger: Logger, maxQueuedBytes: Int = 1 << 20, metrics: any MetricsFactory = NOOPMetricsHandler.instance
    ) {
        self.sent = Counter(label: "swiftchat_push_sent_total", factory: metrics)
        self.failed = Counter(label: "swiftchat_push_failed_total", factory: metrics)
        self.dropped = Counter(label: "swiftchat_push_dropped_total", factory: metrics)
        self.removed = Counter(label: "swiftchat_push_subscriptions_removed_total", factory: metrics)
        self.http = http
        self.vapid = vapid
        self.store = store
        self.logger = logger
        self.maxQueuedBytes = maxQueuedBytes
    }

    /// Queues `message` for `subscription`; returns at once.
    public func send(_ message: PushMessage, to subscription: PushSubscription) {
        let job = Job(subscription: subscription, message: message)
        while self.queuedBytes + job.size > self.maxQueuedBytes, let oldest = self.order.popFirst() {
            guard let gone = self.queues[oldest]?.popFirst() else { continue }
            self.queuedBytes -= gone.size
            self.dropped.increment()
        }
        self.queues[subscription.endpoint, default: []].append(job)
        self.order.append(subscription.endpoint)
        self.queuedBytes += job.size
        guard !self.sending.contains(subscription.endpoint) else { return }
        self.sending.insert(subscription.endpoint)
        Task { await self.drain(subscription.endpoint) }
    }

    /// Bytes waiting to be sent, for tests and metrics.
    public var waitingBytes: Int { self.queuedBytes }

    private func drain(_ endpoint: String) async {
        while let job = self.queues[endpoint]?.popFirst() {
            self.queuedBytes -= job.size
            if let index = self.order.firstIndex(of: endpoint) { self.order.remove(at: index) }
            await self.deliver(job)
        }
        self.queues[endpoint] = nil
        self.sending.remove(endpoint)
    }

    private func deliver(_ job: Job) async {
        for attempt in 0..<Self.tries {
            let status: HTTPResponseStatus
            let retryAfter: Int?
            do {
                let response = try await self.http.execute(
                    try self.request(for: job), timeout: Self.timeout, maxBodyBytes: 1 << 16)
                status = response.status
                retryAfter = response.headers.first(name: "Retry-After").flatMap(Int.init)
            } catch {
                self.logger.notice(
                    "push failed", metadata: ["endpoint": "\(job.subscription.endpoint)", "error": "\(error)"])
                self.failed.increment()
                return
            }
            switch status.code {
            case 200..<300:
                self.sent.increment()
                return
            case 404, 410:
                _ = try? await self.store.unsubscribe(
                    endpoint: job.subscription.endpoint, of: job.subscription.account)
                self.removed.increment()
                return
            case 429,
                500..<600 where attempt + 1 < Self.tries:
                let wait = min(retryAfter ?? (1 << attempt), 60)
                try? await Task.sleep(for: .seconds(wait))
            default:
                self.logger.notice(
                    "push refused", metadata: ["endpoint": "\(job.subscription.endpoint)", "status": "\(status.code)"])
                self.failed.increment()
                return
            }
        }
    }

    private func request(for job: Job) throws -> HTTPClientRequest {
        guard let url = URL(string: job.subscription.endpoint) else { throw WebPushEncryption.Malformed() }
        let body = try WebPushEncryption.encrypt(job.message.payload, for: job.subscription)
        var request = HTTPClientRequest(url: job.subscription.endpoint)
        request.method = .POST
        request.headers.add(name: "TTL", value: "\(job.message.ttl)")
        request.headers.add(name: "Content-Encoding", value: "aes128gcm")
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.headers.add(name: "Urgency", value: job.message.urgent ? "high" : "normal")
        if let topic = job.message.topic { request.headers.add(name: "Topic", value: topic) }
        request.headers.add(name: "Authorization", value: try self.vapid().authorization(for: url))
        request.body = .bytes(ByteBuffer(bytes: body))
        return request
    }
}
