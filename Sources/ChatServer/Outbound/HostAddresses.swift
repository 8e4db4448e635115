import Foundation
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Looks up the addresses a host name stands for: what ``GuardedHTTPClient`` checks, and then connects to, before
/// the server sends a request to a name a user gave it.
public protocol HostResolving: Sendable {
    /// The name's addresses (4 or 16 bytes each); an error when it has none.
    func addresses(of host: String) async throws -> [[UInt8]]
}

/// The system's resolver (`getaddrinfo`, which blocks: on a thread pool).
public struct HostAddresses: HostResolving {
    struct NotFound: Error {}

    let pool: NIOThreadPool

    public init(pool: NIOThreadPool) {
        self.pool = pool
    }

    public func addresses(of host: String) async throws -> [[UInt8]] {
        try await self.pool.runIfActive {
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var first: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, nil, &hints, &first) == 0, let first else { throw NotFound() }
            defer { freeaddrinfo(first) }
            var addresses: [[UInt8]] = []
            var next: UnsafeMutablePointer<addrinfo>? = first
            while let entry = next {
                if let address = entry.pointee.ai_addr {
                    switch Int32(address.pointee.sa_family) {
                    case AF_INET:
                        address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                            var bytes = $0.pointee.sin_addr
                            addresses.append(withUnsafeBytes(of: &bytes) { Array($0) })
                        }
                    case AF_INET6:
                        address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                            var bytes = $0.pointee.sin6_addr
                            addresses.append(withUnsafeBytes(of: &bytes) { Array($0) })
                        }
                    default: break
                    }
                }
                next = entry.pointee.ai_next
            }
            return addresses
        }
    }
}
