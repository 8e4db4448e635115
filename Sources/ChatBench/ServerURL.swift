import Foundation
import NIOCore

/// The host, port and path of a `ws://` URL.
struct ServerURL: Sendable {
    let host: String
    let port: Int
    let path: String
    let text: String
    /// The host's address when it is an IP address: a connection to it then needs no resolver. NIO's connect by
    /// name resolves and races addresses (happy eyeballs) for every connection, which for a local IP address is
    /// only work, and most of the generator's when thousands connect at once.
    let address: SocketAddress?

    init(_ text: String) throws {
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "ws",
            let host = components.host, !host.isEmpty
        else {
            throw BenchError.invalidURL(text)
        }
        self.host = host
        self.port = components.port ?? 80
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        self.path = components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
        self.text = text
        self.address = try? SocketAddress(ipAddress: host, port: self.port)
    }

    /// The same server, another path (with its query).
    func with(path: String) -> ServerURL {
        ServerURL(
            host: self.host, port: self.port, path: path, text: "ws://\(self.hostHeader)\(path)", address: self.address)
    }

    private init(host: String, port: Int, path: String, text: String, address: SocketAddress?) {
        self.host = host
        self.port = port
        self.path = path
        self.text = text
        self.address = address
    }

    /// The value of the upgrade request's `Host` header.
    var hostHeader: String {
        self.port == 80 ? self.host : "\(self.host):\(self.port)"
    }
}

/// The endpoints the clients are spread over, round-robin by client index: one server, or several nodes of one.
/// On the modern protocol each client opens `/api/v1/ws` with its own account's token.
struct ServerTargets: Sendable {
    let urls: [ServerURL]
    var tokens: [String]?

    init(_ texts: [String]) throws {
        guard !texts.isEmpty else { throw BenchError.invalidURL("(none)") }
        self.urls = try texts.map(ServerURL.init)
    }

    func forClient(_ index: Int) -> ServerURL {
        let url = self.urls[index % self.urls.count]
        guard let tokens = self.tokens else { return url }
        return url.with(path: "/api/v1/ws?token=\(tokens[index])")
    }

    var text: String { self.urls.map(\.text).joined(separator: " ") }
}
