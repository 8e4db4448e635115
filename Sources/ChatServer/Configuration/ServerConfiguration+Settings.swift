import Logging

extension ServerConfiguration {
    /// One configurable setting: its flag, its environment variable, and how to apply a textual value.
    public struct Setting: Sendable {
        public let flag: String
        public let variable: String
        public let help: String
        let apply: @Sendable (inout ServerConfiguration, String) -> String?

        /// `--flag` as typed on the command line.
        public var option: String { "--\(self.flag)" }
    }

    /// Why start-up stopped: one entry per bad setting, each naming it and the value it had.
    public struct InvalidSettings: Error, CustomStringConvertible {
        public let problems: [String]
        public var description: String {
            "invalid configuration:\n" + self.problems.map { "  - \($0)" }.joined(separator: "\n")
        }
    }

    /// Every setting, in the order `--help` lists them.
    public static let settings: [Setting] = [
        .text("host", "CHAT_HOST", "Address to listen on") { $0.host = $1 },
        .integer("port", "CHAT_PORT", "HTTP and WebSocket port (0 = any free port)", 0...65535) { $0.port = $1 },
        .integer("tcp-port", "CHAT_TCP_PORT", "TCP text-protocol port (0 = any free port)", 0...65535) { $0.tcpPort = $1 },
        .text("data-dir", "CHAT_DATA_DIR", "Directory holding chat.sqlite") { $0.dataDirectory = $1 },
        .integer("history-on-join", "CHAT_HISTORY_ON_JOIN", "Lobby messages sent to a /chat client on connect", 0...10_000) { $0.historyOnJoin = $1 },
        .integer("tcp-history-on-join", "CHAT_TCP_HISTORY_ON_JOIN", "Lobby messages sent to a TCP client after iam:", 0...10_000) { $0.tcpHistoryOnJoin = $1 },
        .integer("max-message-bytes", "CHAT_MAX_MESSAGE_BYTES", "Longest /chat message text, in bytes", 1...1 << 20) { $0.maxMessageBytes = $1 },
        .integer("max-frame-bytes", "CHAT_MAX_FRAME_BYTES", "Largest /chat WebSocket message, in bytes", 125...1 << 24) { $0.maxFrameBytes = $1 },
        .integer("echo-max-message-bytes", "CHAT_ECHO_MAX_MESSAGE_BYTES", "Largest /echo WebSocket message, in bytes", 125...1 << 28) { $0.echoMaxMessageBytes = $1 },
        .integer("outbound-queue-bytes", "CHAT_OUTBOUND_QUEUE_BYTES", "Bytes queued for one slow client before it is dropped", 1024...1 << 30) { $0.outboundQueueBytes = $1 },
        .boolean("announce-joins", "CHAT_ANNOUNCE_JOINS", "Announce joins and leaves to /chat clients (true/false)") { $0.announceJoins = $1 },
        .integer("event-loops", "CHAT_EVENT_LOOPS", "Event loop threads (0 = one per CPU this process may use)", 0...256) { $0.eventLoops = $1 },
        .integer("bcrypt-cost", "CHAT_BCRYPT_COST", "bcrypt work factor for account passwords", 4...16) { $0.bcryptCost = $1 },
        .integer("ping-interval", "CHAT_PING_INTERVAL", "Seconds between keepalive pings on /api/v1/ws", 1...3600) { $0.pingInterval = $1 },
        .integer("max-replay", "CHAT_MAX_REPLAY", "Most messages replayed per room when a client resumes", 0...100_000) { $0.maxReplay = $1 },
        .integer("send-burst", "CHAT_SEND_BURST", "Messages a user may send at once on /api/v1/ws", 1...100_000) { $0.sendBurst = $1 },
        .integer("send-rate", "CHAT_SEND_RATE", "Messages per second a user may send on /api/v1/ws after the burst", 1...100_000) { $0.sendRate = $1 },
        .integer("max-upload-bytes", "CHAT_MAX_UPLOAD_BYTES", "Largest attachment upload, in bytes", 1...1 << 30) { $0.maxUploadBytes = $1 },
        .integer("presence-grace", "CHAT_PRESENCE_GRACE", "Seconds before a disconnected user shows as offline", 0...3600) { $0.presenceGrace = $1 },
        .boolean("demo-bot", "CHAT_DEMO_BOT", "Run the echo-bot account that answers direct messages (true/false)") { $0.demoBot = $1 },
        .text("web-root", "CHAT_WEB_ROOT", "Directory of the web client served at /") { $0.webRoot = $1 },
        .text("public-url", "CHAT_PUBLIC_URL", "URL clients use to reach this server (for attachment links)") { $0.publicURL = $1 },
        .logLevel("log-level", "LOG_LEVEL", "trace, debug, info, notice, warning, error or critical") { $0.logLevel = $1 },
    ]

    /// Builds a configuration from flag values (keyed by flag name, without dashes) and environment variables.
    /// Every bad value is reported at once, naming its flag, its variable and the value.
    public static func resolve(flags: [String: String], environment: [String: String]) throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        var problems: [String] = []
        for setting in self.settings {
            let (value, source): (String?, String) =
                if let flag = flags[setting.flag] { (flag, setting.option) } else { (environment[setting.variable], setting.variable) }
            guard let value else { continue }
            if let problem = setting.apply(&configuration, value) {
                problems.append("\(setting.option) / \(setting.variable): \(problem) (got '\(value)' from \(source))")
            }
        }
        if !problems.isEmpty {
            throw InvalidSettings(problems: problems)
        }
        return configuration
    }
}

extension ServerConfiguration.Setting {
    fileprivate static func text(
        _ flag: String, _ variable: String, _ help: String, _ assign: @escaping @Sendable (inout ServerConfiguration, String) -> Void
    ) -> Self {
        Self(flag: flag, variable: variable, help: help) { configuration, value in
            guard !value.isEmpty else { return "must not be empty" }
            assign(&configuration, value)
            return nil
        }
    }

    fileprivate static func integer(
        _ flag: String, _ variable: String, _ help: String, _ range: ClosedRange<Int>,
        _ assign: @escaping @Sendable (inout ServerConfiguration, Int) -> Void
    ) -> Self {
        Self(flag: flag, variable: variable, help: help) { configuration, value in
            guard let number = Int(value), range.contains(number) else {
                return "expected a whole number from \(range.lowerBound) to \(range.upperBound)"
            }
            assign(&configuration, number)
            return nil
        }
    }

    fileprivate static func boolean(
        _ flag: String, _ variable: String, _ help: String, _ assign: @escaping @Sendable (inout ServerConfiguration, Bool) -> Void
    ) -> Self {
        Self(flag: flag, variable: variable, help: help) { configuration, value in
            switch value.lowercased() {
            case "true", "yes", "1", "on": assign(&configuration, true)
            case "false", "no", "0", "off": assign(&configuration, false)
            default: return "expected true or false"
            }
            return nil
        }
    }

    fileprivate static func logLevel(
        _ flag: String, _ variable: String, _ help: String,
        _ assign: @escaping @Sendable (inout ServerConfiguration, Logger.Level) -> Void
    ) -> Self {
        Self(flag: flag, variable: variable, help: help) { configuration, value in
            guard let level = Logger.Level(rawValue: value.lowercased()) else {
                return "expected one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))"
            }
            assign(&configuration, level)
            return nil
        }
    }
}

extension ServerConfiguration {
    /// Each setting's default, as `--help` shows it.
    static let defaultDescriptions: [String: String] = {
        let defaults = ServerConfiguration()
        return [
            "host": defaults.host, "port": "\(defaults.port)", "tcp-port": "\(defaults.tcpPort)",
            "data-dir": defaults.dataDirectory, "history-on-join": "\(defaults.historyOnJoin)",
            "tcp-history-on-join": "\(defaults.tcpHistoryOnJoin)", "max-message-bytes": "\(defaults.maxMessageBytes)",
            "max-frame-bytes": "\(defaults.maxFrameBytes)", "echo-max-message-bytes": "\(defaults.echoMaxMessageBytes)",
            "outbound-queue-bytes": "\(defaults.outboundQueueBytes)", "announce-joins": "\(defaults.announceJoins)",
            "event-loops": "\(defaults.eventLoops)", "bcrypt-cost": "\(defaults.bcryptCost)",
            "ping-interval": "\(defaults.pingInterval)", "max-replay": "\(defaults.maxReplay)",
            "send-burst": "\(defaults.sendBurst)", "send-rate": "\(defaults.sendRate)",
            "max-upload-bytes": "\(defaults.maxUploadBytes)", "presence-grace": "\(defaults.presenceGrace)",
            "demo-bot": "\(defaults.demoBot)", "web-root": "Public/ of the source tree", "public-url": "http://HOST:PORT",
            "log-level": defaults.logLevel.rawValue,
        ]
    }()
}
