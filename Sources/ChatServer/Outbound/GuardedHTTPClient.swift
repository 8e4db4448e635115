import AsyncHTTPClient
import ChatCore
import Foundation
import Logging
import Metrics
import NIOCore
import NIOHTTP1

/// The one way the server sends a request to an address a user gave it (Web Push endpoints today), so that no user
/// can make it knock on an internal address (server-side request forgery).
///
/// For each hop it checks the URL (`http` or `https` only, as ``OutboundPolicy/allows(_:)`` says), resolves the host
/// itself and checks every address it stands for (loopback, private, link-local, shared, unique-local, multicast,
/// reserved, unspecified and IPv4-mapped addresses are refused unless `--outbound-allow` names them), then connects
/// to the address it checked: AsyncHTTPClient's `dnsOverride` keeps the host name for `Host`, SNI and the
/// certificate, and no second lookup happens, so a name cannot resolve to a public address for the check and an
/// internal one for the connection (DNS rebinding). Redirects are followed by hand, each checked the same way.
/// Every refusal is logged with its reason and counted (`swiftchat_outbound_refused_total{reason}`).
public struct GuardedHTTPClient: Sendable {
    /// What came back: the status, the headers, and at most `maxBodyBytes` of the body.
    public struct Response: Sendable {
        public let status: HTTPResponseStatus
        public let headers: HTTPHeaders
        public let body: ByteBuffer
        /// The URL that answered, after redirects.
        public let url: URL
    }

    /// Why no request was sent.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        /// Not an `http` or `https` URL with a host.
        case scheme
        /// The host is, or stands for, an address the policy refuses; or `http` to a public address.
        case address
        /// The host name has no address.
        case unresolved
        /// More redirects than allowed.
        case redirects

        public var description: String {
            switch self {
            case .scheme: "scheme"
            case .address: "address"
            case .unresolved: "unresolved"
            case .redirects: "redirects"
            }
        }
    }

    let policy: OutboundPolicy
    let resolver: any HostResolving
    let eventLoops: any EventLoopGroup
    let logger: Logger
    /// The server's metrics (``ServerMetrics``), where refusals are counted.
    let metrics: any MetricsFactory

    public init(
        policy: OutboundPolicy, resolver: any HostResolving, eventLoops: any EventLoopGroup, logger: Logger,
        metrics: any MetricsFactory = NOOPMetricsHandler.instance
    ) {
        self.policy = policy
        self.resolver = resolver
        self.eventLoops = eventLoops
        self.logger = logger
        self.metrics = metrics
    }

    /// Sends `request`, following at most `maxRedirects` redirects (a `303` becomes a `GET`), each hop within
    /// `timeout`; reads at most `maxBodyBytes` of the final body and leaves the rest unread.
    public func execute(
        _ request: HTTPClientRequest, timeout: TimeAmount, maxRedirects: Int = 0, maxBodyBytes: Int = 1 << 20
    ) async throws -> Response {
        var request = request
        var redirects = 0
        while true {
            let (url, override) = try await self.checked(request.url)
            var configuration = HTTPClient.Configuration(
                redirectConfiguration: .disallow, timeout: .init(connect: timeout, read: timeout))
            if let override { configuration.dnsOverride = override }
            let client = HTTPClient(eventLoopGroupProvider: .shared(self.eventLoops), configuration: configuration)
            do {
                let response = try await client.execute(request, timeout: timeout)
                if (300..<400).contains(response.status.code), maxRedirects > 0,
                    let location = response.headers.first(name: "Location"),
                    let next = URL(string: location, relativeTo: url)?.absoluteURL
                {
                    try await client.shutdown()
                    guard redirects < maxRedirects else { throw self.refuse(.redirects, next.absoluteString) }
                    redirects += 1
                    request.url = next.absoluteString
                    if response.status == .seeOther {
                        request.method = .GET
                        request.body = nil
                    }
                    continue
                }
                let body = try await Self.collect(response.body, upTo: maxBodyBytes)
                try await client.shutdown()
                return Response(status: response.status, headers: response.headers, body: body, url: url)
            } catch {
                try? await client.shutdown()
                throw error
            }
        }
    }

    /// The URL, if it may be requested, and the address its host name must connect to (`nil` for an address
    /// written in the URL).
    private func checked(_ text: String) async throws -> (URL, [String: String]?) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty
        else { throw self.refuse(.scheme, text) }
        let bare = host.trimmingCharacters(in: ["[", "]"])
        if IPAddressBytes.parse(bare) != nil {
            guard self.policy.allows(url) else { throw self.refuse(.address, text) }
            return (url, nil)
        }
        // `localhost` and its subdomains are loopback whatever a resolver says (RFC 6761).
        let name = bare.lowercased()
        guard name != "localhost", !name.hasSuffix(".localhost") else { throw self.refuse(.address, text) }
        let addresses: [[UInt8]]
        do {
            addresses = try await self.resolver.addresses(of: bare)
        } catch {
            throw self.refuse(.unresolved, text)
        }
        // Every address the name stands for must be allowed: which one a connection would use is not ours to pick.
        guard let first = addresses.first, addresses.allSatisfy(self.policy.allows(address:)),
            scheme == "https" || addresses.allSatisfy(self.policy.allowsPlainHTTP(to:))
        else {
            throw self.refuse(.address, text)
        }
        return (url, [bare: IPAddressBytes.text(first)])
    }

    private func refuse(_ reason: Refusal, _ url: String) -> Refusal {
        self.logger.notice("outbound request refused", metadata: ["reason": "\(reason)", "url": "\(url)"])
        Counter(
            label: "swiftchat_outbound_refused_total", dimensions: [("reason", reason.description)],
            factory: self.metrics
        ).increment()
        return reason
    }

    /// The body's first `limit` bytes; the rest is left unread (the connection is closed with the client).
    private static func collect(_ body: HTTPClientResponse.Body, upTo limit: Int) async throws -> ByteBuffer {
        var collected = ByteBuffer()
        for try await var chunk in body {
            let room = limit - collected.readableBytes
            guard room > 0 else { break }
            if chunk.readableBytes > room { chunk = chunk.getSlice(at: chunk.readerIndex, length: room)! }
            collected.writeBuffer(&chunk)
            if collected.readableBytes >= limit { break }
        }
        return collected
    }
}
