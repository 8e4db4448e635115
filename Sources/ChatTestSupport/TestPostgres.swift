import Foundation
import NIOConcurrencyHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A throwaway PostgreSQL server for the tests of one test process: started on first use from the machine's own
/// binaries (Debian's `postgresql` package), unprivileged, in a temporary directory, reachable only through a Unix
/// socket in that directory, with `fsync` off (a test database need not survive a power loss), and stopped when the
/// process exits. Each test asks it for a database of its own (``makeDatabase()``). It takes 2,000 connections: the
/// suite runs its tests in parallel, each with a server or two that hold a pool of their own.
///
/// PostgreSQL refuses to run as root, so when the tests run as root the server runs as the `postgres` user (the
/// package creates it), through `runuser`.
public final class TestPostgres: Sendable {
    /// The directory of the socket (and of the cluster, in `data/`).
    public let directory: String
    private let binaries: String
    private let databases = NIOLockedValueBox(0)

    /// The port in the socket's name (`.s.PGSQL.PORT`); the server listens on no TCP port.
    public static let socketPort = 5432
    /// The superuser the cluster is created with; it trusts local connections.
    public static let user = "chat"

    private static let started = NIOLockedValueBox<Task<TestPostgres, any Error>?>(nil)

    /// The test process's server, started on first use.
    public static func shared() async throws -> TestPostgres {
        let task = self.started.withLockedValue { started in
            if let started { return started }
            let task = Task { try await TestPostgres.start(synchronousCommit: false) }
            started = task
            return task
        }
        return try await task.value
    }

    /// A server of the calling test's own, for a test that restarts or stops it; stopped at exit like the shared one.
    /// Its commits are synchronous: an acknowledged commit must outlive ``restartImmediately()``, which drops what
    /// PostgreSQL had not yet written (`fsync` stays off: the machine itself does not crash).
    public static func startPrivate() async throws -> TestPostgres {
        try await TestPostgres.start(synchronousCommit: true)
    }

    /// Restarts the server as a crash would end it (`pg_ctl restart -m immediate`: no shutdown checkpoint, every
    /// connection cut), and returns once it accepts connections again.
    public func restartImmediately() async throws {
        try await self.run("pg_ctl", ["-D", "\(self.directory)/data", "-m", "immediate", "-w", "restart"])
    }

    private init(directory: String, binaries: String) {
        self.directory = directory
        self.binaries = binaries
    }

    /// A new, empty database, and the URL to reach it (`--database-url`'s Unix-socket form).
    public func makeDatabase() async throws -> (name: String, url: String) {
        let number = self.databases.withLockedValue { count in
            count += 1
            return count
        }
        let name = "test_\(getpid())_\(number)"
        try await self.psql("CREATE DATABASE \(name)")
        return (name, "postgres:///\(name)?host=\(self.directory)&port=\(Self.socketPort)&user=\(Self.user)")
    }

    /// Runs one statement as the superuser on the `postgres` database (to create databases, or to end sessions as
    /// the fault tests do), and returns what it printed: the rows without headers, columns separated by `|`.
    @discardableResult
    public func psql(_ statement: String, database: String = "postgres") async throws -> String {
        let psql = URL(fileURLWithPath: "\(self.binaries)/psql")
        let result = try await runToEnd(
            psql,
            arguments: [
                "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-h", self.directory, "-p", "\(Self.socketPort)", "-U",
                Self.user, "-d", database, "-c", statement,
            ], withStandardError: true)
        guard result.status == 0 else {
            throw TestClientError("psql \(statement): exit \(result.status): \(result.output)")
        }
        return result.output
    }

    private static func start(synchronousCommit: Bool) async throws -> TestPostgres {
        guard let binaries = self.binaryDirectory() else {
            throw TestClientError(
                "PostgreSQL's server programs were not found (/usr/lib/postgresql/*/bin): install Debian's postgresql package (scripts/install-test-deps.sh does)"
            )
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "swiftchat-pg-\(getpid())-\(UUID().uuidString.prefix(8))"
        ).path
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let owner = getuid() == 0 ? getpwnam("postgres") : nil
        if getuid() == 0 {
            guard let owner else {
                throw TestClientError("running as root, but there is no postgres user to run PostgreSQL as")
            }
            chown(directory, owner.pointee.pw_uid, owner.pointee.pw_gid)
        }
        let server = TestPostgres(directory: directory, binaries: binaries)
        try await server.run(
            "initdb",
            ["-D", "\(directory)/data", "-A", "trust", "-U", Self.user, "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"])
        let options = [
            "-p \(Self.socketPort)", "-k \(directory)", "-c listen_addresses=''", "-c fsync=off",
            "-c synchronous_commit=\(synchronousCommit ? "on" : "off")", "-c full_page_writes=off",
            "-c max_connections=2000",
        ].joined(separator: " ")
        try await server.run(
            "pg_ctl", ["-D", "\(directory)/data", "-l", "\(directory)/log", "-w", "-o", options, "start"])
        Self.stopAtExit(server)
        return server
    }

    /// Runs one of the server's programs, as `postgres` when this process is root.
    private func run(_ program: String, _ arguments: [String]) async throws {
        let path = "\(self.binaries)/\(program)"
        let (executable, fullArguments) =
            getuid() == 0
            ? (URL(fileURLWithPath: "/usr/sbin/runuser"), ["-u", "postgres", "--", path] + arguments)
            : (URL(fileURLWithPath: path), arguments)
        let result = try await runToEnd(executable, arguments: fullArguments, withStandardError: true)
        guard result.status == 0 else {
            throw TestClientError("\(program) failed (exit \(result.status)): \(result.output)")
        }
    }

    /// The newest `/usr/lib/postgresql/N/bin` holding `initdb`, else the directory of `initdb` on the `PATH`.
    private static func binaryDirectory() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        for version in versions.compactMap(Int.init).sorted(by: >) {
            let bin = "\(root)/\(version)/bin"
            if FileManager.default.isExecutableFile(atPath: "\(bin)/initdb") { return bin }
        }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            if FileManager.default.isExecutableFile(atPath: "\(directory)/initdb") { return String(directory) }
        }
        return nil
    }

    /// What `atexit` runs, one command per server started: a C function cannot capture, so the commands wait here.
    private static let stopCommands = NIOLockedValueBox<[String]>([])

    private static func stopAtExit(_ server: TestPostgres) {
        let pgCtl = "\(server.binaries)/pg_ctl -D '\(server.directory)/data' -m immediate stop"
        let asOwner = getuid() == 0 ? "/usr/sbin/runuser -u postgres -- \(pgCtl)" : pgCtl
        let first = self.stopCommands.withLockedValue { commands in
            commands.append("\(asOwner) >/dev/null 2>&1; rm -rf '\(server.directory)'")
            return commands.count == 1
        }
        guard first else { return }
        atexit {
            for command in TestPostgres.stopCommands.withLockedValue({ $0 }) { _ = system(command) }
        }
    }
}
