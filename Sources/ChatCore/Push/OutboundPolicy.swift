import Foundation

/// A block of IP addresses, written `192.0.2.0/24`, `2001:db8::/32`, or one address.
public struct AddressRange: Sendable, Hashable, CustomStringConvertible {
    /// The network's bytes (4 or 16) and how many leading bits must match.
    let network: [UInt8]
    let prefix: Int

    public init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let address = IPAddressBytes.parse(String(parts[0])) else { return nil }
        let bits = address.count * 8
        guard let prefix = parts.count == 2 ? Int(parts[1]) : bits, (0...bits).contains(prefix) else { return nil }
        self.network = address
        self.prefix = prefix
    }

    public func contains(_ address: [UInt8]) -> Bool {
        guard address.count == self.network.count else { return false }
        var remaining = self.prefix
        for (left, right) in zip(address, self.network) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            guard left & mask == right & mask else { return false }
            remaining -= 8
        }
        return true
    }

    public var description: String {
        let address =
            self.network.count == 4
            ? self.network.map(String.init).joined(separator: ".")
            : stride(from: 0, to: 16, by: 2).map {
                String(UInt16(self.network[$0]) << 8 | UInt16(self.network[$0 + 1]), radix: 16)
            }
            .joined(separator: ":")
        return "\(address)/\(self.prefix)"
    }
}

/// Where the server may send requests of its own (Web Push today): `https` to public addresses, and anything to the
/// addresses the operator allows (`--outbound-allow`), plain `http` included, as the tests' own receiver on loopback
/// needs. *Why one list:* every outbound request is a way for a user to make the server knock on an internal
/// address; one allowlist says for all of them which internal ones may be knocked on.
public struct OutboundPolicy: Sendable {
    public let allowed: [AddressRange]

    public init(allowed: [AddressRange]) {
        self.allowed = allowed
    }

    /// Blocks no server should reach unless allowed: unspecified, private, loopback, link-local (the cloud metadata
    /// service at 169.254.169.254 among them), shared (CGNAT), multicast, reserved, documentation and benchmarking
    /// addresses; in IPv6 also unique-local, IPv4-mapped and the translation prefixes that embed an IPv4 address.
    static let internalRanges: [AddressRange] = [
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
        "192.0.0.0/24", "192.0.2.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24",
        "224.0.0.0/4", "240.0.0.0/4", "::/128", "::1/128", "::ffff:0:0/96", "64:ff9b::/96", "64:ff9b:1::/48",
        "100::/64", "2001:db8::/32", "2002::/16", "fc00::/7", "fe80::/10", "ff00::/8",
    ].compactMap(AddressRange.init)

    /// Whether an address may be reached: allowed by the operator, or public.
    public func allows(address: [UInt8]) -> Bool {
        self.allowsPlainHTTP(to: address) || !Self.internalRanges.contains { $0.contains(address) }
    }

    /// Whether plain `http` may go to an address: only to those the operator allows (the rest of the world gets
    /// `https`).
    public func allowsPlainHTTP(to address: [UInt8]) -> Bool {
        self.allowed.contains { $0.contains(address) }
    }

    /// Whether a URL may be the target of a request, as far as it says: `https` (or `http` to an allowed
    /// address), and a host that is not an internal address unless allowed. A host name is looked up when the
    /// request is made, and its address checked then with ``allows(address:)``.
    public func allows(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else { return false }
        let literal = IPAddressBytes.parse(host) ?? (host.lowercased() == "localhost" ? [127, 0, 0, 1] : nil)
        if let literal {
            let allowed = self.allowed.contains { $0.contains(literal) }
            return (scheme == "https" || (scheme == "http" && allowed)) && self.allows(address: literal)
        }
        return scheme == "https" && !host.lowercased().hasSuffix(".localhost")
    }
}

/// IPv4 and IPv6 addresses as their bytes.
public enum IPAddressBytes {
    /// Parses an address (brackets allowed) to its 4 or 16 bytes.
    public static func parse(_ text: String) -> [UInt8]? {
        let trimmed = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        var v4 = in_addr()
        if inet_pton(AF_INET, trimmed, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, trimmed, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// The address's usual text: `192.0.2.1`, `2001:db8::1`.
    public static func text(_ bytes: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        return String(cString: buffer)
    }
}
