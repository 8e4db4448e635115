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
