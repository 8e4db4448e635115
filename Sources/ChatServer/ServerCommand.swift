import ArgumentParser
import ChatProtocol
import Foundation
import Logging

/// `chat-server`: runs SwiftChat until SIGINT or SIGTERM.
///
/// Every option is also read from its environment variable (flag wins); the table and the validation live in
/// ``ServerConfiguration/settings``, so `--help`, the README and the checks cannot disagree.
public struct ServerCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "chat-server",
        abstract:
            "SwiftChat: a chat server for the Vapor /chat, DogeChat TCP and /echo relay protocols, and its own /api/v1.",
        usage: "chat-server [--config FILE] [--SETTING <value>] ...",
        discussion: "Settings (each can also be set with the environment variable shown in brackets):\n\n"
            + ServerConfiguration.helpText
            + "\n--config <file>\n    KEY=value lines under the variables' names (CHAT_PORT=8080), as systemd's EnvironmentFile= reads them; flags, then the environment, then the file, then the defaults"
            + "\n\nchat-server backup --to DIR [--data-dir DIR] [--attachments-dir DIR]\n    A consistent copy of the database and the attachments it names, taken while the server runs."
            + "\n\nchat-server restore --from DIR [--data-dir DIR] [--attachments-dir DIR]\n    Verifies a backup and puts it in an empty data directory no server is using."
            + "\n\nchat-server migrate-to-postgres --from FILE --database-url URL [--attachments-store files|postgres] [--attachments-dir DIR]\n    Copies a stopped server's SQLite database into an empty PostgreSQL database, and verifies the counts; with\n    --attachments-store postgres, the attachments' bytes too."
            + "\n\n\(AdminTool.usage)\n    Administrators and accounts, on the configured database, whether the server runs or not (docs/OPERATIONS.md).",
        version: SwiftChatVersion.current
    )

    /// `--flag value` pairs, read against ``ServerConfiguration/settings`` rather than declared one by one here.
    @Argument(parsing: .allUnrecognized, help: .hidden) var arguments: [String] = []

    public init() {}

    /// The tools run instead of the server by their first argument; each returns the report it prints.
    static let tools:
        [String: @Sendable (_ arguments: [String], _ environment: [String: String]) async throws -> String] = [
            "backup": Backup.run, "restore": Restore.run, "migrate-to-postgres": PostgresMigration.run,
            "admin": AdminTool.run,
        ]

    public func run() async throws {
        // Caught before anything else: a SIGHUP during start-up must not end the process (its default action).
        let reloadSignal = ReloadSignal.install()
        // Whatever the server or a tool creates (the database, its journal, attachments, a backup) is readable by its
        // own user only, from its first byte.
        umask(0o077)
        if let name = self.arguments.first, let tool = Self.tools[name] {
            do {
                print(try await tool(Array(self.arguments.dropFirst()), ProcessInfo.processInfo.environment))
            } catch let failure as ToolFailure {
                throw ValidationError(failure.description)
            }
            return
        }
        let configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration.resolve(
                arguments: self.arguments, environment: ProcessInfo.processInfo.environment)
        } catch let error as ServerConfiguration.InvalidSettings {
            throw ValidationError(error.description)
        }
        let level = configuration.logLevel
        let json = configuration.logFormat == "json"
        let journal = JournalLogHandler.isJournal(
            ProcessInfo.processInfo.environment, standardOutputSocket: JournalLogHandler.standardOutputSocket)
        LoggingSystem.bootstrap { label in
            if json { return JSONLogHandler(label: label, logLevel: level) }
            if journal { return JournalLogHandler(label: label, logLevel: level) }
            var handler = StreamLogHandler.standardOutput(label: label)
            handler.logLevel = level
            return handler
        }
        FileDescriptorLimit.raiseToHardLimit()
        // Caught before anything starts: SIGTERM during start-up stops the server once it has started.
        let shutdownSignal = ShutdownSignal.install()
        let service = try await ChatService.start(configuration)
        reloadSignal.handle { service.reloadCertificates() }
        await shutdownSignal.wait()
        await service.shutdown()
    }
}
