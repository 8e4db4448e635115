import NIOCore

/// The loopback source addresses the clients connect from (`--source-addresses N`): client `i` binds to the
/// `i % N`-th of 127.1.0.1, 127.1.0.2, … (250 to each third octet). Each source address has the whole ephemeral
/// port range to itself, so more clients than that range holds can reach one node, and a server's per-address
/// limits see many clients instead of one. With none, the kernel picks the source (127.0.0.1 on loopback).
struct SourceAddresses: Sendable {
    /// The most addresses handed out: 127.1.0.1 to 127.1.255.250.
    static let maximum = 256 * 250

    let count: Int

    func address(forClient index: Int) throws -> SocketAddress? {
        guard self.count > 0 else { return nil }
        let position = index % self.count
        return try SocketAddress(ipAddress: "127.1.\(position / 250).\(position % 250 + 1)", port: 0)
    }
}
