import ArgumentParser
import Foundation
import Logging

/// `chat-server`: runs SwiftChat until SIGINT or SIGTERM.
///
/// Every option is also read from its environment variable (flag wins); the table and the validation live in
/// ``ServerConfiguration/settings``, so `--help`, the README and the checks cannot disagree.
public struct ServerCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "chat-server",
        abstract: "SwiftChat: a chat server for the Vapor /chat, DogeChat TCP and /echo relay protocols, and its own /api/v1.",
        discussion: "Each option can also be set with the environment variable shown in brackets.")

    @Option(help: Self.help("host")) var host: String?
    @Option(help: Self.help("port")) var port: String?
    @Option(help: Self.help("tcp-port")) var tcpPort: String?
    @Option(help: Self.help("data-dir")) var dataDir: String?
    @Option(help: Self.help("history-on-join")) var historyOnJoin: String?
    @Option(help: Self.help("tcp-history-on-join")) var tcpHistoryOnJoin: String?
    @Option(help: Self.help("max-message-bytes")) var maxMessageBytes: String?
    @Option(help: Self.help("max-frame-bytes")) var maxFrameBytes: String?
    @Option(help: Self.help("echo-max-message-bytes")) var echoMaxMessageBytes: String?
    @Option(help: Self.help("outbound-queue-bytes")) var outboundQueueBytes: String?
    @Option(help: Self.help("announce-joins")) var announceJoins: String?
    @Option(help: Self.help("event-loops")) var eventLoops: String?
    @Option(help: Self.help("bcrypt-cost")) var bcryptCost: String?
    @Option(help: Self.help("ping-interval")) var pingInterval: String?
    @Option(help: Self.help("max-replay")) var maxReplay: String?
    @Option(help: Self.help("send-burst")) var sendBurst: String?
    @Option(help: Self.help("send-rate")) var sendRate: String?
    @Option(help: Self.help("max-upload-bytes")) var maxUploadBytes: String?
    @Option(help: Self.help("presence-grace")) var presenceGrace: String?
    @Option(help: Self.help("demo-bot")) var demoBot: String?
    @Option(help: Self.help("web-root")) var webRoot: String?
    @Option(help: Self.help("public-url")) var publicURL: String?
    @Option(help: Self.help("log-level")) var logLevel: String?

    public init() {}

    /// The flag values given, keyed by flag name.
    var flags: [String: String] {
        let given: [(String, String?)] = [
            ("host", self.host), ("port", self.port), ("tcp-port", self.tcpPort), ("data-dir", self.dataDir),
            ("history-on-join", self.historyOnJoin), ("tcp-history-on-join", self.tcpHistoryOnJoin),
            ("max-message-bytes", self.maxMessageBytes), ("max-frame-bytes", self.maxFrameBytes),
            ("echo-max-message-bytes", self.echoMaxMessageBytes), ("outbound-queue-bytes", self.outboundQueueBytes),
            ("announce-joins", self.announceJoins), ("event-loops", self.eventLoops),
            ("bcrypt-cost", self.bcryptCost), ("ping-interval", self.pingInterval), ("max-replay", self.maxReplay),
            ("send-burst", self.sendBurst), ("send-rate", self.sendRate),
            ("max-upload-bytes", self.maxUploadBytes), ("presence-grace", self.presenceGrace), ("demo-bot", self.demoBot),
            ("web-root", self.webRoot), ("public-url", self.publicURL),
            ("log-level", self.logLevel),
        ]
        return Dictionary(uniqueKeysWithValues: given.compactMap { name, value in value.map { (name, $0) } })
    }

    public func run() async throws {
        let configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration.resolve(flags: self.flags, environment: ProcessInfo.processInfo.environment)
        } catch let error as ServerConfiguration.InvalidSettings {
            throw ValidationError(error.description)
        }
        let level = configuration.logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardOutput(label: label)
            handler.logLevel = level
            return handler
        }
        FileDescriptorLimit.raiseToHardLimit()
        let service = try await ChatService.start(configuration)
        await ShutdownSignal.wait()
        await service.shutdown()
    }

    private static func help(_ flag: String) -> ArgumentHelp {
        guard let setting = ServerConfiguration.settings.first(where: { $0.flag == flag }) else {
            preconditionFailure("no setting named \(flag)")
        }
        let defaults = ServerConfiguration.defaultDescriptions[flag] ?? ""
        return ArgumentHelp("\(setting.help) [\(setting.variable), default \(defaults)]", valueName: "value")
    }
}
