import Foundation

/// The host, port and path of a `ws://` URL.
struct ServerURL: Sendable {
    let host: String
    let port: Int
    let path: String
    let text: String

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
    }

    /// The value of the upgrade request's `Host` header.
    var hostHeader: String {
        self.port == 80 ? self.host : "\(self.host):\(self.port)"
    }
}

/// The endpoints the clients are spread over, round-robin by client index: one server, or several nodes of one.
struct ServerTargets: Sendable {
    let urls: [ServerURL]

    init(_ texts: [String]) throws {
        guard !texts.isEmpty else { throw BenchError.invalidURL("(none)") }
        self.urls = try texts.map(ServerURL.init)
    }

    func forClient(_ index: Int) -> ServerURL { self.urls[index % self.urls.count] }

    var text: String { self.urls.map(\.text).joined(separator: " ") }
}
