import Foundation

/// Where a SwiftChat server is: scheme, host and HTTP port. The same address serves `/api/v1` over HTTP and the
/// WebSockets (`/api/v1/ws`, `/chat`) over `ws://` (or `https` and `wss://`).
public struct ServerAddress: Sendable, Hashable, CustomStringConvertible {
    /// `true` for `https`/`wss`.
    public var secure: Bool
    /// A host name or an IP address.
    public var host: String
    /// The HTTP port.
    public var port: Int

    /// An address from its parts.
    public init(host: String, port: Int, secure: Bool = false) {
        self.host = host
        self.port = port
        self.secure = secure
    }

    /// Parses `http://host:port`, `https://host`, `ws://host:port` or a bare `host:port`. Without a port, a URL
    /// means its scheme's (80, or 443 for `https` and `wss`), as a browser reads it; a bare host means the server's
    /// default, 8080. Returns `nil` for anything else.
    public init?(_ text: String) {
        var rest = text.trimmingCharacters(in: .whitespaces)
        var secure = false
        var port = 8080
        for (prefix, isSecure) in [("http://", false), ("ws://", false), ("https://", true), ("wss://", true)]
        where rest.lowercased().hasPrefix(prefix) {
            secure = isSecure
            port = isSecure ? 443 : 80
            rest.removeFirst(prefix.count)
        }
        if let slash = rest.firstIndex(of: "/") { rest = String(rest[..<slash]) }
        guard !rest.isEmpty else { return nil }
        var host = rest
        if let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]") {
            guard let parsed = Int(rest[rest.index(after: colon)...]), (1...65535).contains(parsed) else { return nil }
            host = String(rest[..<colon])
            port = parsed
        }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "@" }) else { return nil }
        self.init(host: host, port: port, secure: secure)
    }

    /// `http://host:port`.
    public var httpBase: String { "\(self.secure ? "https" : "http")://\(self.host):\(self.port)" }

    /// `ws://host:port` followed by `path` (which starts with `/`).
    public func webSocketURL(_ path: String) -> String {
        "\(self.secure ? "wss" : "ws")://\(self.host):\(self.port)\(path)"
    }

    /// The address as `http://host:port`.
    public var description: String { self.httpBase }
}
