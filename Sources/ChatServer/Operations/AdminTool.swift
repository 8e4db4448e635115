import ChatCore
import ChatPersistence
import ChatProtocol
import ChatUseCases
import Fluent
import FluentSQLiteDriver
import Foundation
import SQLKit
import Vapor

/// `chat-server admin COMMAND [USERNAME] [--data-dir DIR | --database-url URL]`: the administrators' operations
/// (PROTOCOL.md §10) for an operator with a shell, on the configured database, whether the server runs or not. The
/// rules are the ``Administration`` use case's, as over HTTP; the audit log names the actor `operator`.
public enum AdminTool {
    static let usage = """
        chat-server admin grant|revoke|deactivate|reactivate|reset-password USERNAME | list-users | \
        invite [--max-uses N] [--expires-in-hours H]   [--data-dir DIR | --database-url URL] [--public-url URL]
        """

    /// The commands that change an account, and the change each makes.
    static let changes: [String: @Sendable () -> AdministrativeChange] = [
        "grant": { .grantAdministrator }, "revoke": { .revokeAdministrator }, "reactivate": { .reactivate },
        "deactivate": { .deactivate(at: Date()) },
    ]

    public static func run(arguments: [String], environment: [String: String]) async throws -> String {
        guard let command = arguments.first else { throw ToolFailure("admin: a command is required: \(Self.usage)") }
        var rest = Array(arguments.dropFirst())
        var username = ""
        switch command {
        case "list-users", "invite":
            break
        case _ where Self.changes[command] != nil || command == "reset-password":
            guard let name = rest.first, !name.hasPrefix("--") else {
                throw ToolFailure("admin \(command): a USERNAME is required")
            }
            username = name
            rest.removeFirst()
        default:
            throw ToolFailure("admin: unknown command '\(command)': \(Self.usage)")
        }
        let (configuration, own) = try ServerConfiguration.resolve(
            tool: "admin \(command)", arguments: rest, environment: environment,
            settings: ["data-dir", "database-url", "public-url", "host", "port"], required: [:],
            optional: command == "invite" ? ["max-uses", "expires-in-hours"] : [])
        let publicURL =
            configuration.publicURL.isEmpty
            ? "http://\(ChatService.urlHost(reaching: configuration.host)):\(configuration.port)"
            : configuration.publicURL
        return try await Self.withDatabase(configuration) { database, notifyDeactivated in
            let administration = Administration(
                accounts: FluentAccountStore(database: database), directory: FluentRoomDirectory(database: database),
                audit: FluentAuditLog(database: database), sessions: NoSessions(), publicURL: { publicURL })
            do {
                switch command {
                case "list-users":
                    return try await Self.listUsers(administration)
                case "invite":
                    let invitations = Invitations(
                        store: FluentInvitationStore(database: database),
                        access: RoomAccess(directory: FluentRoomDirectory(database: database)), membersMayInvite: false,
                        publicURL: { publicURL })
                    let request = InvitationRequest(
                        maxUses: try own["max-uses"].map { try Self.number($0, "--max-uses") },
                        expiresInHours: try own["expires-in-hours"].map { try Self.number($0, "--expires-in-hours") })
                    let invitation = try await invitations.create(request, by: .operator, isAdministrator: true)
                    return invitation.url
                case "reset-password":
                    let link = try await administration.passwordReset(for: .username(username), by: .operator)
                    return "\(link.url)\n(valid once, for 24 hours: give it to \(username) only)"
                default:
                    let change = Self.changes[command]!()
                    let user = try await administration.apply(change, to: .username(username), by: .operator)
                    if case .deactivate = change { try await notifyDeactivated(user.profile.id) }
                    return "\(command): \(user.profile.username) is now "
                        + (user.deactivated ? "deactivated" : "active") + (user.admin ? ", an administrator" : "")
                }
            } catch let refusal as Refusal {
                throw ToolFailure("admin \(command): \(refusal.message)")
            }
        }
    }

    private static func number(_ text: String, _ flag: String) throws -> Int {
        guard let value = Int(text) else { throw ToolFailure("admin invite: \(flag) must be a whole number") }
        return value
    }

    /// Every account, a line each.
    private static func listUsers(_ administration: Administration) async throws -> String {
        var lines = ["USERNAME\tADMIN\tDEACTIVATED\tDISPLAY NAME"]
        var after: String?
        repeat {
            let page = try await administration.users(matching: "", after: after, limit: 200)
            for user in page.users {
                lines.append(
                    "\(user.profile.username)\t\(user.admin ? "yes" : "no")\t\(user.deactivated ? "yes" : "no")\t\(user.profile.displayName)"
                )
            }
            after = page.next
        } while after != nil
        return lines.joined(separator: "\n")
    }

    /// Opens the configured database without the server's lock (SQLite's write lock and busy timeout let this run
    /// beside a server), migrates it if it is new, and closes it after `body`. `body` gets how to tell running
    /// servers of a deactivation: on PostgreSQL, the notification every node listens to; on SQLite, nothing
    /// reaches the running server, whose open sockets of that account end when they reconnect.
    private static func withDatabase(
        _ configuration: ServerConfiguration,
        _ body: (any Database, @escaping @Sendable (UUID) async throws -> Void) async throws -> String
    ) async throws -> String {
        let application = try await Application.make(
            Environment(name: "production", arguments: ["chat-server"]), .shared(MultiThreadedEventLoopGroup.singleton))
        application.logger.logLevel = .warning
        var storage: PostgresStorage?
        do {
            let notify: @Sendable (UUID) async throws -> Void
            if let url = configuration.databaseURL {
                let defaults = ServerConfiguration()
                storage = try await PostgresStorage.open(
                    application, url: url,
                    sendLimit: SendLimitRule(burst: defaults.sendBurst, rate: defaults.sendRate), metrics: nil,
                    logger: application.logger)
                let sql = application.db as? any SQLDatabase
                notify = { account in
                    try await sql?.raw(
                        "SELECT pg_notify(\(bind: PostgresLiveSessions.channel), \(bind: PostgresLiveSessions.deactivationNotice(account)))"
                    ).run()
                }
            } else {
                try DataDirectory.prepare(configuration.dataDirectory, database: configuration.databasePath)
                application.databases.use(.sqlite(.file(configuration.databasePath), sqlLogLevel: nil), as: .sqlite)
                try await SQLiteLockWaits.apply(
                    to: application.databases, .sqlite, eventLoops: application.eventLoopGroup,
                    logger: application.logger)
                application.migrations.add(ChatMigrations.all)
                try await application.autoMigrate()
                notify = { _ in }
            }
            let report = try await body(application.db, notify)
            await storage?.close()
            try await application.asyncShutdown()
            return report
        } catch {
            await storage?.close()
            try? await application.asyncShutdown()
            if let failure = error as? ToolFailure { throw failure }
            throw ToolFailure("admin: \(error)")
        }
    }
}

/// The command line holds no connections; it tells the running servers of a deactivation itself.
private struct NoSessions: LiveSessions {
    func joined(_ users: [UUID], room: RoomID) async {}
    func left(_ user: UUID, room: RoomID) async {}
    func closeAll(account: UUID) {}
    func closeAll(tokenHash: String) {}
    func closeAll(deactivated account: UUID) {}
}
