import ChatCore
import ChatPersistence
import ChatServer
import Foundation
import Logging

/// A real SwiftChat server for one test: ephemeral ports, its own temporary data directory.
public final class TestServer: Sendable {
    public let service: ChatService
    public let configuration: ServerConfiguration

    public var host: String { self.service.host }
    public var httpPort: Int { self.service.httpPort }
    public var tcpPort: Int { self.service.tcpPort }

    /// `ws://host:port` followed by `path`.
    public func webSocketURL(_ path: String) -> String { "ws://\(self.host):\(self.httpPort)\(path)" }

    private init(service: ChatService, configuration: ServerConfiguration) {
        self.service = service
        self.configuration = configuration
    }

    /// The environment variable that runs every test server on PostgreSQL (a database of its own on
    /// ``TestPostgres``) instead of SQLite: `CHAT_TEST_DATABASE=postgres`. `scripts/test.sh` runs the integration
    /// suites a second time with it.
    public static let backendVariable = "CHAT_TEST_DATABASE"

    /// Starts a server; `configure` may change any setting (ports and data directory are already test ones), and
    /// `time` is what its typing throttle and presence read.
    public static func start(
        dataDirectory: String? = nil, time: any TimeSource = SystemTime(),
        _ configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.tcpPort = 0
        configuration.dataDirectory = dataDirectory ?? Self.makeTemporaryDirectory()
        configuration.logLevel = .warning
        configuration.bcryptCost = 4  // the minimum: tests check behaviour, not resistance to guessing
        configuration.demoBot = false  // an extra account would change what tests count; the bot has its own test
        // Every test client comes from 127.0.0.1: per-address limits are raised, and their own tests lower them.
        configuration.registrationsPerHour = 100_000
        configuration.tutorialSendBurst = 100_000
        configuration.tutorialSendRate = 100_000
        configuration.maxConnectionsPerAddress = 100_000
        configuration.drainSeconds = 0  // a test that stops its server does not wait for a load balancer
        configuration.metricsPort = 0  // many servers run at once
        // The test clients never answer pings, and a test that ran past two intervals on a machine loaded by the
        // whole suite lost its idle clients (1001). The keepalive tests set their own interval.
        configuration.pingInterval = 3600
        // A message's link would be fetched from the internet: tests stay on loopback, and the previews' own turn it on.
        configuration.linkPreviews = false
        if ProcessInfo.processInfo.environment[Self.backendVariable] == "postgres" {
            configuration.databaseURL = try await Self.postgresDatabase(for: configuration.dataDirectory)
        }
        // One node per database unless a test starts more; tests of several nodes give them one directory.
        configuration.attachmentsShared = true
        configure(&configuration)
        let service = try await ChatService.start(configuration, logger: Logger(label: "test-server"), time: time)
        return TestServer(service: service, configuration: configuration)
    }

    /// Shuts the server down gracefully; the data directory is kept so a test can restart on it.
    public func stop() async {
        await self.service.shutdown()
    }

    /// The database of a data directory: the one a server started on it before used (a test that restarts its
    /// server finds its data again), else a new one, noted in the directory.
    private static func postgresDatabase(for dataDirectory: String) async throws -> DatabaseURL {
        let note = URL(fileURLWithPath: dataDirectory).appendingPathComponent("test-database-url")
        if let url = try? String(contentsOf: note, encoding: .utf8) { return try DatabaseURL(url) }
        let (_, url) = try await TestPostgres.shared().makeDatabase()
        try url.write(to: note, atomically: true, encoding: .utf8)
        return try DatabaseURL(url)
    }

    /// A new, empty database on the test process's PostgreSQL server.
    public static func makePostgresDatabase() async throws -> DatabaseURL {
        try DatabaseURL(try await TestPostgres.shared().makeDatabase().url)
    }

    /// A fresh directory under the system's temporary directory.
    public static func makeTemporaryDirectory() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("swiftchat-test-\(UUID().uuidString)")
            .path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// Starts a server, runs the body, and always stops the server and removes its data directory.
public func withTestServer<T>(
    time: any TimeSource = SystemTime(), _ configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: (TestServer) async throws -> T
) async throws -> T {
    let server = try await TestServer.start(time: time, configure)
    do {
        let result = try await body(server)
        await server.stop()
        try? FileManager.default.removeItem(atPath: server.configuration.dataDirectory)
        return result
    } catch {
        await server.stop()
        try? FileManager.default.removeItem(atPath: server.configuration.dataDirectory)
        throw error
    }
}
