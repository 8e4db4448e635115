import Foundation
import NIOSSL
import PostgresNIO

/// Where the PostgreSQL database is, from `--database-url`, in libpq's URL forms:
/// `postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=require`, or through a Unix socket,
/// `postgres:///DATABASE?host=/var/run/postgresql` (the directory of the socket, as libpq's `host` takes it).
///
/// Its ``description`` never shows the password, so the URL can go into logs and error messages.
public struct DatabaseURL: Sendable, Equatable, CustomStringConvertible {
    public enum Endpoint: Sendable, Equatable {
        case tcp(host: String, port: Int)
        /// The directory holding the server's socket, `.s.PGSQL.PORT`.
        case unixSocket(directory: String, port: Int)
    }

    /// libpq's `sslmode`, reduced to what the connection does.
    public enum TLSMode: String, Sendable, Equatable {
        /// Plain text (`disable`; always through a Unix socket).
        case disable
        /// TLS when the server offers it, without checking its certificate (`allow`, `prefer`: libpq's default).
        case prefer
        /// TLS or no connection, without checking the certificate (`require`, as libpq).
        case require
        /// TLS or no connection, with the certificate checked against the system's roots and the host name
        /// (`verify-ca`, `verify-full`).
        case verify
    }

    public let endpoint: Endpoint
    public let username: String
    public let password: String?
    public let database: String
    public let tls: TLSMode

    /// Why a URL was refused; says what to write instead, and never repeats the password.
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public init(_ text: String) throws {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            ["postgres", "postgresql"].contains(scheme)
        else {
            throw Invalid(
                description:
                    "not a PostgreSQL URL; write postgres://USER:PASSWORD@HOST:PORT/DATABASE or postgres:///DATABASE?host=/SOCKET/DIRECTORY"
            )
        }
        let query = components.queryItems ?? []
        func parameter(_ name: String) -> String? { query.last { $0.name.lowercased() == name }?.value }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !database.isEmpty, !database.contains("/") else {
            throw Invalid(description: "names no database; add it as the path, e.g. postgres://chat@db.example/chat")
        }
        let port = components.port ?? parameter("port").flatMap(Int.init) ?? 5432
        guard (1...65535).contains(port) else { throw Invalid(description: "port \(port) is out of range") }
        let host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? parameter("host")
        switch host {
        case .some(let directory) where directory.hasPrefix("/"):
            self.endpoint = .unixSocket(directory: directory, port: port)
        case .some(let name):
            self.endpoint = .tcp(host: name, port: port)
        case .none:
            throw Invalid(
                description:
                    "names no host; write postgres://USER@HOST/DATABASE, or postgres:///DATABASE?host=/var/run/postgresql for a Unix socket"
            )
        }
        let user = components.user ?? parameter("user") ?? ProcessInfo.processInfo.userName
        guard !user.isEmpty else { throw Invalid(description: "names no user; write postgres://USER@HOST/DATABASE") }
        self.username = user
        self.password = components.password ?? parameter("password")
        self.database = database
        switch parameter("sslmode")?.lowercased() {
        case "disable": self.tls = .disable
        case nil, "allow", "prefer":
            if case .unixSocket = self.endpoint { self.tls = .disable } else { self.tls = .prefer }
        case "require": self.tls = .require
        case "verify-ca", "verify-full": self.tls = .verify
        case .some(let other):
            throw Invalid(
                description: "sslmode=\(other) is not one of disable, allow, prefer, require, verify-ca, verify-full")
        }
        if case .unixSocket = self.endpoint, self.tls == .require || self.tls == .verify {
            throw Invalid(description: "sslmode=\(self.tls.rawValue) asks for TLS, which a Unix socket does not carry")
        }
    }

    /// Text given as a URL with whatever could be a password replaced by `***`, for messages about a value that
    /// did not parse: the part between `://USER:` and `@`, and a `password=` parameter.
    public static func redacting(_ text: String) -> String {
        var shown = text
        if let scheme = shown.range(of: "://"), let at = shown.range(of: "@", options: .backwards),
            scheme.upperBound <= at.lowerBound,
            let colon = shown[scheme.upperBound..<at.lowerBound].firstIndex(of: ":")
        {
            shown.replaceSubrange(shown.index(after: colon)..<at.lowerBound, with: "***")
        }
        if let password = shown.range(of: "password=", options: .caseInsensitive) {
            let end = shown[password.upperBound...].firstIndex(of: "&") ?? shown.endIndex
            shown.replaceSubrange(password.upperBound..<end, with: "***")
        }
        return shown
    }

    /// The URL with the password replaced by `***`.
    public var description: String {
        let credentials = self.username + (self.password == nil ? "" : ":***")
        switch self.endpoint {
        case .tcp(let host, let port):
            let shownHost = host.contains(":") ? "[\(host)]" : host
            return "postgres://\(credentials)@\(shownHost):\(port)/\(self.database)?sslmode=\(self.tls.rawValue)"
        case .unixSocket(let directory, let port):
            return "postgres://\(credentials)@/\(self.database)?host=\(directory)&port=\(port)"
        }
    }

    /// How PostgresNIO's pooled client connects to it.
    public func clientConfiguration() -> PostgresClient.Configuration {
        switch self.endpoint {
        case .unixSocket:
            return PostgresClient.Configuration(
                unixSocketPath: self.socketPath, username: self.username, password: self.password,
                database: self.database)
        case .tcp(let host, let port):
            let tls: PostgresClient.Configuration.TLS =
                switch (self.tls, self.tlsConfiguration) {
                case (.prefer, let configuration?): .prefer(configuration)
                case (.require, let configuration?), (.verify, let configuration?): .require(configuration)
                default: .disable
                }
            return PostgresClient.Configuration(
                host: host, port: port, username: self.username, password: self.password, database: self.database,
                tls: tls)
        }
    }

    /// How one PostgresNIO connection, outside the pool, connects to it (the start-up check).
    public func connectionConfiguration() throws -> PostgresConnection.Configuration {
        switch self.endpoint {
        case .unixSocket:
            return PostgresConnection.Configuration(
                unixSocketPath: self.socketPath, username: self.username, password: self.password,
                database: self.database)
        case .tcp(let host, let port):
            let context = try self.tlsConfiguration.map(NIOSSLContext.init(configuration:))
            let tls: PostgresConnection.Configuration.TLS =
                switch (self.tls, context) {
                case (.prefer, let context?): .prefer(context)
                case (.require, let context?), (.verify, let context?): .require(context)
                default: .disable
                }
            return PostgresConnection.Configuration(
                host: host, port: port, username: self.username, password: self.password, database: self.database,
                tls: tls)
        }
    }

    private var socketPath: String {
        guard case .unixSocket(let directory, let port) = self.endpoint else { return "" }
        return "\(directory)/.s.PGSQL.\(port)"
    }

    /// The TLS settings the mode asks for: the certificate unchecked for `prefer` and `require` (as libpq does),
    /// checked against the system's roots and the host name for `verify`.
    private var tlsConfiguration: TLSConfiguration? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch self.tls {
        case .disable: return nil
        case .prefer, .require: configuration.certificateVerification = .none
        case .verify: break
        }
        return configuration
    }
}
