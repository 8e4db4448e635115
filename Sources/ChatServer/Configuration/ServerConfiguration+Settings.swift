import ChatCore
import ChatPersistence
import Foundation
import Logging

extension ServerConfiguration {
    /// One configurable setting, declared once: its flag, its environment variable, what it means, its default,
    /// what it accepts, and how to apply a textual value. `--help`, validation and the README's table (checked by
    /// a test) all come from these values.
    public struct Setting: Sendable {
        public let flag: String
        public let variable: String
        public let meaning: String
        public let accepted: String
        let defaultText: @Sendable (ServerConfiguration) -> String
        let apply: @Sendable (inout ServerConfiguration, String) -> String?
        /// A value as an error message may repeat it (a secret inside it hidden).
        var shown: @Sendable (String) -> String = { $0 }

        /// `--flag` as typed on the command line.
        public var option: String { "--\(self.flag)" }

        /// The default, as `--help` and the README show it.
        public var defaultValue: String { self.defaultText(ServerConfiguration()) }
    }

    /// Why start-up stopped: one entry per bad setting, each naming it and the value it had.
    public struct InvalidSettings: Error, CustomStringConvertible {
        public let problems: [String]
        public var description: String {
            "invalid configuration:\n" + self.problems.map { "  - \($0)" }.joined(separator: "\n")
        }
    }

    /// Every setting, in the order `--help` and the README list them.
    public static let settings: [Setting] = [
        .text("host", "CHAT_HOST", \.host, "Address both listeners bind to", accepted: "any non-empty address"),
        .integer("port", "CHAT_PORT", \.port, 0...65535, "HTTP and WebSocket port (`0` = any free port)"),
        .integer("tcp-port", "CHAT_TCP_PORT", \.tcpPort, 0...65535, "TCP text-protocol port (`0` = any free port)"),
        .text(
            "data-dir", "CHAT_DATA_DIR", \.dataDirectory,
            "Directory holding `chat.sqlite`, created if missing (mode 0700)", accepted: "any non-empty path"),
        .databaseURL(
            "database-url", "DATABASE_URL",
            "PostgreSQL database for every store, shared by several nodes (docs/DEPLOYMENT.md); unset: SQLite in `--data-dir`"
        ),
        .integer(
            "history-on-join", "CHAT_HISTORY_ON_JOIN", \.historyOnJoin, 0...10_000,
            "Lobby messages sent to a `/chat` client when it connects"),
        .integer(
            "tcp-history-on-join", "CHAT_TCP_HISTORY_ON_JOIN", \.tcpHistoryOnJoin, 0...10_000,
            "Lobby messages sent to a TCP client after `iam:`"),
        .integer(
            "max-message-bytes", "CHAT_MAX_MESSAGE_BYTES", \.maxMessageBytes, 1...1 << 20,
            "Longest `/chat` message text, in UTF-8 bytes (longer gets an error frame)"),
        .integer(
            "max-frame-bytes", "CHAT_MAX_FRAME_BYTES", \.maxFrameBytes, 125...1 << 24,
            "Largest `/chat` WebSocket message (larger closes with 1009)"),
        .integer(
            "echo-max-message-bytes", "CHAT_ECHO_MAX_MESSAGE_BYTES", \.echoMaxMessageBytes, 125...1 << 28,
            "Largest `/echo` WebSocket message (larger closes with 1009)"),
        .integer(
            "outbound-queue-bytes", "CHAT_OUTBOUND_QUEUE_BYTES", \.outboundQueueBytes, 1024...1 << 30,
            "Bytes that may wait for one slow client before it is dropped"),
        .boolean(
            "announce-joins", "CHAT_ANNOUNCE_JOINS", \.announceJoins,
            "Announce joins and leaves to `/chat` clients (TCP clients always get them)"),
        .integer(
            "event-loops", "CHAT_EVENT_LOOPS", \.eventLoops, 0...256,
            "Event loop threads serving connections and rooms; `0` = one per CPU the process may run on (its affinity mask, so `taskset -c 0` gives one)"
        ),
        .integer("bcrypt-cost", "CHAT_BCRYPT_COST", \.bcryptCost, 4...16, "bcrypt work factor for account passwords"),
        .integer(
            "ping-interval", "CHAT_PING_INTERVAL", \.pingInterval, 1...3600,
            "Seconds between keepalive pings on every WebSocket (`/chat`, `/echo`, `/api/v1/ws`); a client silent for two intervals is dropped"
        ),
        .integer(
            "max-replay", "CHAT_MAX_REPLAY", \.maxReplay, 0...100_000,
            "Most messages replayed per room when a modern client resumes; a larger gap asks it to page history"),
        .integer(
            "send-burst", "CHAT_SEND_BURST", \.sendBurst, 1...100_000,
            "Messages a user may send at once on `/api/v1/ws`"),
        .integer(
            "send-rate", "CHAT_SEND_RATE", \.sendRate, 1...100_000,
            "Messages per second a user may send on `/api/v1/ws` after the burst"),
        .integer(
            "tutorial-send-burst", "CHAT_TUTORIAL_SEND_BURST", \.tutorialSendBurst, 1...100_000,
            "Messages a `/chat` or TCP connection (and each address) may send at once"),
        .integer(
            "tutorial-send-rate", "CHAT_TUTORIAL_SEND_RATE", \.tutorialSendRate, 1...100_000,
            "Messages per second a `/chat` or TCP connection (and each address) may send after the burst"),
        .integer(
            "max-upload-bytes", "CHAT_MAX_UPLOAD_BYTES", \.maxUploadBytes, 1...1 << 30,
            "Largest attachment upload, in bytes (larger gets 413)"),
        .integer(
            "upload-quota-bytes", "CHAT_UPLOAD_QUOTA_BYTES", \.uploadQuotaBytes, 1...1 << 50,
            "Attachment bytes one account may store in all (more gets 413 `quota_exceeded`)"),
        .integer(
            "registrations-per-hour", "CHAT_REGISTRATIONS_PER_HOUR", \.registrationsPerHour, 1...1_000_000,
            "Accounts one address may register per hour (all at once, then evenly)"),
        .integer(
            "max-sockets-per-account", "CHAT_MAX_SOCKETS_PER_ACCOUNT", \.maxSocketsPerAccount, 1...10_000,
            "`/api/v1/ws` connections one account may have open"),
        .integer(
            "max-connections", "CHAT_MAX_CONNECTIONS", \.maxConnections, 1...1_000_000,
            "Connections the server accepts in all (HTTP, WebSocket and TCP); more get 503 or an `err:` line. At most the process's descriptor limit less 512 (a higher value is lowered at start, with a warning)"
        ),
        .integer(
            "max-connections-per-address", "CHAT_MAX_CONNECTIONS_PER_ADDRESS", \.maxConnectionsPerAddress,
            1...1_000_000, "Connections one IP address may hold at once"),
        .integer(
            "max-pending-requests", "CHAT_MAX_PENDING_REQUESTS", \.maxPendingRequests, 1...1_000_000,
            "HTTP requests (WebSocket upgrades included) the server works on at once; more are answered `503` with `Retry-After: 1` at once rather than queued (a reconnect storm, a burst of logins)"
        ),
        .boolean(
            "proxy-protocol", "CHAT_PROXY_PROTOCOL", \.proxyProtocol,
            "Behind a proxy that sends the PROXY protocol (HAProxy's `send-proxy-v2`, v1 too) on the HTTP and TCP ports: each connection's header names its client, for every per-address limit, the logs and the audit trail; a connection without one is closed, unless this machine opened it (OPERATIONS.md §3)"
        ),
        .addressRanges(
            "trusted-proxies", "CHAT_TRUSTED_PROXIES", \.trustedProxies,
            "Proxies whose `X-Forwarded-For` names the client of an HTTP request (the right-most address there that is not one of them), comma-separated CIDRs; from any other address the header is ignored"
        ),
        .integer(
            "idle-timeout", "CHAT_IDLE_TIMEOUT", \.idleTimeout, 1...86_400,
            "Seconds an HTTP connection may send nothing (headers, body or next request), and a TCP client may stay without `iam:`, before it is closed"
        ),
        .integer(
            "presence-grace", "CHAT_PRESENCE_GRACE", \.presenceGrace, 0...3600,
            "Seconds a user stays online after their last connection closes, so a reconnect does not flap"),
        .integer(
            "presence-ttl", "CHAT_PRESENCE_TTL", \.presenceTTL, 4...3600,
            "On PostgreSQL: seconds a node's presence rows outlive its last heartbeat (one every quarter of this); the users of a node that dies are announced offline this long after"
        ),
        .integer(
            "presence-room-limit", "CHAT_PRESENCE_ROOM_LIMIT", \.presenceRoomLimit, 0...100_000,
            "Members tell each other when they come online or go offline through rooms of at most this many members; in a larger room (the lobby of a big server) a client asks for a member's presence (PROTOCOL.md §9.5)"
        ),
        .boolean(
            "demo-bot", "CHAT_DEMO_BOT", \.demoBot,
            "Run the `echo-bot` account, which answers direct messages (PROTOCOL.md §9.9)"),
        .boolean(
            "link-previews", "CHAT_LINK_PREVIEWS", \.linkPreviews,
            "Fetch the first link of each message and show its page's title, description and image under it (PROTOCOL.md §9.15)"
        ),
        .text(
            "web-root", "CHAT_WEB_ROOT", \.webRoot, "Directory of the web client served at `/`",
            accepted: "any non-empty path",
            default:
                "`Public/` beside the binary's directory (the release archive's), else of the source tree it was built from"
        ),
        .text(
            "public-url", "CHAT_PUBLIC_URL", \.publicURL,
            "How clients reach this server, for the attachment links tutorial clients see",
            accepted: "a URL without a trailing `/`", default: "`http://HOST:PORT` as bound"),
        .text(
            "attachments-dir", "CHAT_ATTACHMENTS_DIR", \.attachmentsPath,
            "Where attachment files live, one per content; with several nodes, storage every node mounts",
            accepted: "a directory path", default: "`attachments/` in `--data-dir`"),
        .boolean(
            "attachments-shared", "CHAT_ATTACHMENTS_SHARED", \.attachmentsShared,
            "Whether every node sees the same `--attachments-dir` (a network or cluster file system); a node on PostgreSQL keeping files there refuses to start without it"
        ),
        .choice(
            "registration", "CHAT_REGISTRATION", \.registration, ["open", "invite", "closed"],
            "Who may create an account: `open`, anyone; `invite`, whoever has an invitation (`POST /api/v1/invites`, `chat-server admin invite`); `closed`, no one (`POST /api/v1/register` answers 403)"
        ),
        .integer(
            "retention-days", "CHAT_RETENTION_DAYS", \.retentionDays, 0...36_500,
            "Days a message is kept: older ones are deleted (as their authors' deletions would be, attachments with them) by a sweep at start and every hour; `0` keeps every message"
        ),
        .boolean(
            "members-may-invite", "CHAT_MEMBERS_MAY_INVITE", \.membersMayInvite,
            "Whether every member, not only administrators, may create invitations"),
        .protocols(
            "tutorial-protocols", "CHAT_TUTORIAL_PROTOCOLS",
            "The anonymous tutorial protocols served, comma-separated: `chat` (`/chat`), `tcp` (the TCP port), `echo` (`/echo`); `none` serves only the modern API and the web client. A disabled `/chat` or `/echo` answers 404, a disabled TCP port is not opened"
        ),
        .addressRanges(
            "outbound-allow", "CHAT_OUTBOUND_ALLOW", \.outboundAllow,
            "Internal addresses the server may send its own requests to (Web Push endpoints, bots' webhooks, link previews; SECURITY.md §9), comma-separated CIDRs such as `127.0.0.0/8,10.1.0.0/16`; plain `http` is allowed to them. Anything else must be `https` on a public address"
        ),
        .optionalText(
            "vapid-subject", "CHAT_VAPID_SUBJECT", \.vapidSubject,
            "Who runs the server, as push services see it in every Web Push request (VAPID): a `mailto:` address or an `https:` URL",
            accepted: "`mailto:…` or `https://…`", default: "`--public-url`"),
        .choice(
            "push-content", "CHAT_PUSH_CONTENT", \.pushContent, ["shown", "hidden"],
            "What a Web Push notification says: `shown`, the sender and the text; `hidden`, only \"New message\" (the push service never reads either: it is encrypted)"
        ),
        .choice(
            "attachments-store", "CHAT_ATTACHMENTS_STORE", \.attachmentsStore, ["files", "postgres"],
            "Where attachment bytes live: `files` in `--attachments-dir`, or `postgres` in the database, in chunks (needs `--database-url`; no shared directory then)"
        ),
        .text(
            "node-name", "CHAT_NODE_NAME", \.nodeName, "Which server this is, in every log line and in `/readyz`",
            accepted: "any non-empty name", default: "the host name and `--port` (`HOST:PORT`)"),
        .durability(
            "durability", "CHAT_DURABILITY",
            "What an acknowledgement promises: `process` (kept across a crash of the server; the disk syncs off the commit path) or `power` (kept across a power loss: one sync per commit batch)"
        ),
        .integer(
            "drain-seconds", "CHAT_DRAIN_SECONDS", \.drainSeconds, 0...3600,
            "On SIGTERM or SIGINT: seconds `/readyz` answers 503 while the server still serves, before it closes connections (WebSockets with 1012)"
        ),
        .integer(
            "ready-grace-seconds", "CHAT_READY_GRACE_SECONDS", \.readyGraceSeconds, 0...3600,
            "Seconds the database may be out before `/readyz` answers 503: a restart of a shared PostgreSQL reaches every node at once, and a balancer that dropped them all would serve nobody (OPERATIONS.md §2); `0`: at once"
        ),
        .optionalPath(
            "tls-cert", "CHAT_TLS_CERT", \.tlsCertificate,
            "PEM certificate chain: with `--tls-key`, HTTPS and WSS on `--port` (SIGHUP reloads both files)"),
        .optionalPath("tls-key", "CHAT_TLS_KEY", \.tlsKey, "PEM private key of `--tls-cert`"),
        .boolean(
            "tcp-tls", "CHAT_TCP_TLS", \.tcpTLS, "TLS on the TCP text-protocol port too, with the same certificate"),
        .boolean(
            "metrics", "CHAT_METRICS", \.metrics,
            "Serve Prometheus metrics at `/metrics` on their own listener (docs/OPERATIONS.md)"),
        .text(
            "metrics-host", "CHAT_METRICS_HOST", \.metricsHost,
            "Address the metrics listener binds to (never the public port; only this machine by default)",
            accepted: "any non-empty address"),
        .integer(
            "metrics-port", "CHAT_METRICS_PORT", \.metricsPort, 0...65535,
            "Port of the metrics listener (`0` = any free port)"),
        .logLevel("log-level", "LOG_LEVEL", "Least severe level logged (to standard output)"),
        .choice(
            "log-format", "CHAT_LOG_FORMAT", \.logFormat, ["text", "json"],
            "`text` for people, `json` for one JSON object per line"),
        .boolean(
            "access-log", "CHAT_ACCESS_LOG", \.accessLog,
            "Log every HTTP request at `info` (otherwise at `debug`); query strings are never logged"),
    ]

    /// Builds a configuration from command-line arguments (`--flag value`, `--flag=value`), environment variables
    /// and the file of `--config FILE`, in that order of precedence, then the defaults. Every problem is reported at
    /// once: unknown flags or keys, and bad values naming their flag, their variable, the value and where it came
    /// from.
    public static func resolve(arguments: [String], environment: [String: String]) throws -> ServerConfiguration {
        let (rest, file, fileProblems) = ConfigFile.extract(
            from: arguments, variables: Set(Self.settings.map(\.variable)))
        let (flags, flagProblems) = self.flags(from: rest)
        return try self.resolve(
            flags: flags, environment: environment, file: file, problems: flagProblems + fileProblems)
    }

    /// Builds a configuration from flag values (keyed by flag name, without dashes), environment variables and a
    /// config file's; `only` limits it to the settings of those flags (a tool's), leaving the others at their
    /// defaults.
    static func resolve(
        flags: [String: String], environment: [String: String], file: ConfigFile = ConfigFile(entries: [:]),
        problems: [String] = [], only: Set<String>? = nil
    ) throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        var problems = problems
        for setting in self.settings where only?.contains(setting.flag) ?? true {
            let (value, source): (String?, String) =
                if let flag = flags[setting.flag] {
                    (flag, setting.option)
                } else if let variable = environment[setting.variable] {
                    (variable, setting.variable)
                } else if let entry = file.entries[setting.variable] {
                    (entry.value, "\(setting.variable) at \(entry.origin)")
                } else {
                    (nil, "")
                }
            guard let value else { continue }
            if let problem = setting.apply(&configuration, value) {
                problems.append(
                    "\(setting.option) / \(setting.variable): \(problem) (got '\(setting.shown(value))' from \(source))"
                )
            }
        }
        if configuration.tlsCertificate.isEmpty != configuration.tlsKey.isEmpty {
            problems.append("--tls-cert / CHAT_TLS_CERT and --tls-key / CHAT_TLS_KEY go together: give both or neither")
        }
        if configuration.attachmentsStore == "postgres" && configuration.databaseURL == nil {
            problems.append("--attachments-store / CHAT_ATTACHMENTS_STORE postgres needs --database-url")
        }
        if configuration.tcpTLS && configuration.tlsCertificate.isEmpty {
            problems.append("--tcp-tls / CHAT_TCP_TLS needs --tls-cert and --tls-key")
        }
        if !problems.isEmpty {
            throw InvalidSettings(problems: problems)
        }
        return configuration
    }

    /// The arguments of one of `chat-server`'s tools (`backup`, `migrate-to-postgres`): the server `settings` it
    /// takes, read like the server's (flag, then environment variable, then `--config FILE`, then default; the same
    /// validation and messages), those of them it cannot do without (`needed`: flag, variable or file, with the
    /// value's meaning), and its own flags, `required` or `optional`. Every problem is reported at once, naming the
    /// tool. The server's own file serves its tools: settings a tool does not take are ignored in it.
    public static func resolve(
        tool: String, arguments: [String], environment: [String: String], settings: Set<String>,
        needed: [String: String] = [:], required own: [String: String], optional: Set<String> = []
    ) throws(ToolFailure) -> (configuration: ServerConfiguration, own: [String: String]) {
        let (rest, file, fileProblems) = ConfigFile.extract(
            from: arguments, variables: Set(Self.settings.map(\.variable)))
        var (flags, problems) = self.flags(from: rest, known: settings.union(own.keys).union(optional))
        problems += fileProblems
        var values: [String: String] = [:]
        for flag in optional { values[flag] = flags.removeValue(forKey: flag) }
        for setting in self.settings where needed[setting.flag] != nil {
            if (flags[setting.flag] ?? environment[setting.variable] ?? file.entries[setting.variable]?.value ?? "")
                .isEmpty
            {
                problems.append("\(setting.option) \(needed[setting.flag]!) (or \(setting.variable)) is required")
            }
        }
        for (flag, meaning) in own.sorted(by: { $0.key < $1.key }) {
            if let value = flags.removeValue(forKey: flag), !value.isEmpty {
                values[flag] = value
            } else if !problems.contains(where: { $0.hasPrefix("--\(flag) ") }) {
                problems.append("--\(flag) \(meaning) is required")
            }
        }
        do {
            let configuration = try self.resolve(
                flags: flags, environment: environment, file: file, problems: problems, only: settings)
            return (configuration, values)
        } catch {
            let listed = (error as? InvalidSettings)?.problems ?? ["\(error)"]
            throw ToolFailure("\(tool): " + listed.joined(separator: "; "))
        }
    }

    /// Reads `--flag value` and `--flag=value` pairs; an unknown flag or a flag without a value is a problem.
    static func flags(
        from arguments: [String], known: Set<String> = Set(Self.settings.map(\.flag))
    ) -> (flags: [String: String], problems: [String]) {
        var flags: [String: String] = [:]
        var problems: [String] = []
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("--") else {
                problems.append("unexpected argument '\(argument)'")
                continue
            }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard known.contains(name) else {
                problems.append("unknown setting '--\(name)' (chat-server --help lists them)")
                if value == nil, let next = remaining.first, !next.hasPrefix("--") { remaining.removeFirst() }
                continue
            }
            guard let given = value ?? remaining.popFirst() else {
                problems.append("--\(name) needs a value")
                continue
            }
            flags[name] = given
        }
        return (flags, problems)
    }

    /// The settings as `--help` lists them.
    public static var helpText: String {
        self.settings.map { setting in
            "\(setting.option) <value>\n    \(setting.meaning.replacingOccurrences(of: "`", with: "")) "
                + "[\(setting.variable), default \(setting.defaultValue.replacingOccurrences(of: "`", with: ""))]"
        }.joined(separator: "\n")
    }

    /// The settings table of the README.
    public static var markdownTable: String {
        let rows = self.settings.map { setting in
            "| `\(setting.option)` | `\(setting.variable)` | \(setting.meaning) | \(setting.defaultValue) | \(setting.accepted) |"
        }
        return
            (["| flag | environment variable | meaning | default | accepted values |", "|---|---|---|---|---|"] + rows)
            .joined(separator: "\n")
    }
}

extension ServerConfiguration.Setting {
    fileprivate static func text(
        _ flag: String, _ variable: String, _ keyPath: WritableKeyPath<ServerConfiguration, String>, _ meaning: String,
        accepted: String, default: String? = nil
    ) -> Self {
        return Self(
            flag: flag, variable: variable, meaning: meaning, accepted: accepted,
            defaultText: { `default` ?? "`\($0[keyPath: keyPath])`" }
        ) { configuration, value in
            guard !value.isEmpty else { return "must not be empty" }
            configuration[keyPath: keyPath] = value
            return nil
        }
    }

    /// Text that may be left out (empty: `default` says what stands in for it).
    fileprivate static func optionalText(
        _ flag: String, _ variable: String, _ keyPath: WritableKeyPath<ServerConfiguration, String>, _ meaning: String,
        accepted: String, default: String
    ) -> Self {
        return Self(
            flag: flag, variable: variable, meaning: meaning, accepted: accepted, defaultText: { _ in `default` }
        ) { configuration, value in
            configuration[keyPath: keyPath] = value
            return nil
        }
    }

    /// A file path that may be left out (empty: the feature it names is off).
    fileprivate static func optionalPath(
        _ flag: String, _ variable: String, _ keyPath: WritableKeyPath<ServerConfiguration, String>, _ meaning: String
    ) -> Self {
        return Self(
            flag: flag, variable: variable, meaning: meaning, accepted: "a readable file", defaultText: { _ in "none" }
        ) {
            configuration, value in
            configuration[keyPath: keyPath] = value
            return nil
        }
    }

    fileprivate static func integer(
        _ flag: String, _ variable: String, _ keyPath: WritableKeyPath<ServerConfiguration, Int>,
        _ range: ClosedRange<Int>,
        _ meaning: String
    ) -> Self {
        return Self(
            flag: flag, variable: variable, meaning: meaning, accepted: "\(range.lowerBound)–\(range.upperBound)",
            defaultText: { "`\($0[keyPath: keyPath])`" }
        ) { configuration, value in
            guard let number = Int(value), range.contains(number) else {
                return "expected a whole number from \(range.lowerBound) to \(range.upperBound)"
            }
            configuration[keyPath: keyPath] = number
            return nil
        }
    }

    fileprivate static func boolean(
        _ flag: String, _ variable: String, _ keyPath: WritableKeyPath<ServerConfiguration, Bool>, _ meaning: String
    ) -> Self {
        return Self(
            flag: flag, variable: variable, meaning: meaning, accepted: "`true`/`yes`/`1`/`on`, `false`/`no`/`0`/`off`",
            defaultText: { "`\($0[keyPath: keyPath])`" }
        ) { configuration, value in
            switch value.lowercased() {
            case "true", "yes", "1", "on": configuration[keyPath: keyPath] = true
            case "false", "no", "0", "off": configuration[keyPath: keyPath] = false
            default: return "expected true or false"
            }
            return nil
        }
    }

    fileprivate static func choice(
        _ flag: String, _ variable: String, _ keyPath: WritableKeyPath<ServerConfiguration, String>,
        _ choices: [String],
        _ meaning: String
    ) -> Self {
        return Self(
            flag: flag, variable: variable, meaning: meaning,
            accepted: choices.map { "`\($0)`" }.joined(separator: ", "),
            defaultText: { "`\($0[keyPath: keyPath])`" }
        ) { configuration, value in
            guard choices.contains(value.lowercased()) else {
                return "expected one of \(choices.joined(separator: ", "))"
            }
            configuration[keyPath: keyPath] = value.lowercased()
            return nil
        }
    }

    /// A comma-separated set of the tutorial protocols, or `none`.
    fileprivate static func protocols(_ flag: String, _ variable: String, _ meaning: String) -> Self {
        let all = TutorialProtocol.allCases.map(\.rawValue)
        return Self(
            flag: flag, variable: variable, meaning: meaning,
            accepted: "a comma-separated list of " + all.map { "`\($0)`" }.joined(separator: ", ") + ", or `none`",
            defaultText: { _ in "`" + all.joined(separator: ",") + "`" }
        ) { configuration, value in
            let names = value.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if names == ["none"] {
                configuration.tutorialProtocols = []
                return nil
            }
            let chosen = names.compactMap(TutorialProtocol.init(rawValue:))
            guard !names.isEmpty, chosen.count == names.count else {
                return "expected a comma-separated list of \(all.joined(separator: ", ")), or none"
            }
            configuration.tutorialProtocols = Set(chosen)
            return nil
        }
    }

    /// A comma-separated list of address blocks, or nothing.
    fileprivate static func addressRanges(
        _ flag: String, _ variable: String, _ keyPath: WritableKeyPath<ServerConfiguration, [AddressRange]>,
        _ meaning: String
    ) -> Self {
        return Self(
            flag: flag, variable: variable, meaning: meaning,
            accepted: "comma-separated IPv4 or IPv6 addresses or CIDR blocks", defaultText: { _ in "none" }
        ) { configuration, value in
            let parts = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            let ranges = parts.compactMap(AddressRange.init)
            guard ranges.count == parts.count else {
                return "expected comma-separated addresses or CIDR blocks such as 127.0.0.0/8"
            }
            configuration[keyPath: keyPath] = ranges
            return nil
        }
    }

    fileprivate static func durability(_ flag: String, _ variable: String, _ meaning: String) -> Self {
        Self(
            flag: flag, variable: variable, meaning: meaning,
            accepted: Durability.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", "),
            defaultText: { "`\($0.durability.rawValue)`" }
        ) { configuration, value in
            guard let durability = Durability(rawValue: value.lowercased()) else {
                return "expected one of \(Durability.allCases.map(\.rawValue).joined(separator: ", "))"
            }
            configuration.durability = durability
            return nil
        }
    }

    fileprivate static func databaseURL(_ flag: String, _ variable: String, _ meaning: String) -> Self {
        var setting = Self(
            flag: flag, variable: variable, meaning: meaning,
            accepted:
                "`postgres://USER:PASSWORD@HOST:PORT/DATABASE` (`?sslmode=require` and libpq's other modes), `postgres:///DATABASE?host=/SOCKET/DIRECTORY`",
            defaultText: { _ in "none (SQLite)" }
        ) { configuration, value in
            do {
                configuration.databaseURL = try DatabaseURL(value)
                return nil
            } catch {
                return "\(error)"
            }
        }
        setting.shown = DatabaseURL.redacting
        return setting
    }

    fileprivate static func logLevel(_ flag: String, _ variable: String, _ meaning: String) -> Self {
        Self(
            flag: flag, variable: variable, meaning: meaning,
            accepted: Logger.Level.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", "),
            defaultText: { "`\($0.logLevel.rawValue)`" }
        ) { configuration, value in
            guard let level = Logger.Level(rawValue: value.lowercased()) else {
                return "expected one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))"
            }
            configuration.logLevel = level
            return nil
        }
    }
}
