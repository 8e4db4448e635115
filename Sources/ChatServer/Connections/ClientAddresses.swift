import ChatCore
import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// Who the clients of one listener are, when a proxy stands between: the address each connection's PROXY protocol
/// header named (``ProxyHeaderReader``), kept while the connection is open, and the proxies whose `X-Forwarded-For`
/// is believed (`--trusted-proxies`). Every per-address limit, log line and audit entry asks here.
///
/// *Why a table keyed by the peer's address:* Vapor makes each `Request` with the channel's `remoteAddress` and keeps
/// no way back to the channel; among the open connections of one listener, the proxy's address and source port name
/// one connection, so the request finds its client by them.
final class ClientAddresses: Sendable {
    let trustedProxies: [AddressRange]
    private let proxied = NIOLockedValueBox([SocketAddress: String]())

    init(trustedProxies: [AddressRange]) {
        self.trustedProxies = trustedProxies
    }

    /// Records the client a connection's PROXY header named, until the connection closes.
    func record(_ client: String, for channel: any Channel) {
        guard let peer = channel.remoteAddress else { return }
        self.proxied.withLockedValue { $0[peer] = client }
        channel.closeFuture.whenComplete { _ in
            self.proxied.withLockedValue { _ = $0.removeValue(forKey: peer) }
        }
    }

    /// The client at the other end of a connection whose peer is `peer`: the one its PROXY header named, else the
    /// peer itself.
    func client(of peer: SocketAddress?) -> String {
        guard let peer else { return "unknown" }
        return self.proxied.withLockedValue { $0[peer] } ?? peer.ipAddress ?? "unknown"
    }

    /// The client of an HTTP request: ``client(of:)``, unless that is a trusted proxy, whose `X-Forwarded-For` then
    /// names it: the right-most address there that is not a trusted proxy (each proxy appends whom it heard from,
    /// so addresses left of that one are the client's own claims).
    func client(of peer: SocketAddress?, forwardedFor: [String]) -> String {
        let connected = self.client(of: peer)
        guard self.isTrusted(connected) else { return connected }
        let chain = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        var client = connected
        for hop in chain.reversed() {
            guard let bytes = IPAddressBytes.parse(hop) else { break }
            client = IPAddressBytes.text(bytes)
            if !self.isTrusted(client) { break }
        }
        return client
    }

    private func isTrusted(_ address: String) -> Bool {
        guard !self.trustedProxies.isEmpty, let bytes = IPAddressBytes.parse(address) else { return false }
        return self.trustedProxies.contains { $0.contains(bytes) }
    }
}
