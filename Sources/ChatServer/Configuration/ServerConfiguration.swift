import ChatCore
import ChatPersistence
import Foundation
import Logging
import NIOCore

/// Every setting of the server, read once at start-up.
///
/// Each setting has a command-line flag and an environment variable; a flag wins over the variable, the
/// variable over the default. The flags, variables, meanings and accepted values are declared once, in
/// ``ServerConfiguration/settings``; `chat-server --help` and the README's table come from there.
public struct ServerConfiguration: Sendable, Equatable {
    /// The address both listeners bind to.
    public var host = "127.0.0.1"
    /// The HTTP and WebSocket port; 0 picks a free one.
    public var port = 8080
    /// The TCP text-protocol port; 0 picks a free one.
    public var tcpPort = 8081
    /// Where `chat.sqlite` lives (and attachments); created on first start.
    public var dataDirectory = "./data"
    /// The PostgreSQL database every store lives in; `nil`: SQLite in ``dataDirectory``.
    public var databaseURL: DatabaseURL?
    /// How many lobby messages a `/chat` client receives when it connects.
    public var historyOnJoin = 50
    /// How many lobby messages a TCP client receives after `iam:`. 0, because the DogeChat client reads each
    /// chunk as one message and would garble a burst.
    public var tcpHistoryOnJoin = 0
    /// The largest message text accepted on `/chat` (UTF-8 bytes); longer gets an error frame.
    public var maxMessageBytes = 4096
    /// The largest WebSocket message on `/chat`; larger closes the connection with 1009.
    public var maxFrameBytes = 65536
    /// The largest WebSocket message relayed by `/echo` (the star-sign client sends photos as base64).
    public var echoMaxMessageBytes = 16 * 1024 * 1024
    /// How many bytes may wait to be sent to one client before it is disconnected as too slow.
    public var outboundQueueBytes = 1024 * 1024
    /// Whether `/chat` clients see joins and leaves as messages from `SwiftChat`.
    public var announceJoins = true
    /// How many NIO event loops (threads) serve connections and rooms; 0 means one per CPU in the process's
    /// affinity mask, so a server pinned to one core (`taskset -c 0`) runs one loop instead of contending.
    public var eventLoops = 0
    /// The bcrypt work factor for passwords (each step doubles the time a guess costs).
    public var bcryptCost = 12
    /// Seconds between keepalive pings on every WebSocket; a client silent for two intervals is dropped.
    public var pingInterval = 30
    /// The most messages a modern client gets replayed when it resumes a room; a larger gap asks it to page.
    public var maxReplay = 1000
    /// How many messages a user may send over `/api/v1/ws` at once before the rate limit applies.
    public var sendBurst = 20
    /// How many messages per second a user may send over `/api/v1/ws` after the burst.
    public var sendRate = 10
    /// How many messages a `/chat` or TCP connection, and all such connections from one address together, may
    /// send at once before the rate limit applies.
    public var tutorialSendBurst = 20
    /// Messages per second a `/chat` or TCP connection (and each address) may send after the burst.
    public var tutorialSendRate = 5
    /// The largest attachment upload, in bytes.
    public var maxUploadBytes = 10 * 1024 * 1024
    /// How many attachment bytes one account may have stored in all.
    public var uploadQuotaBytes = 1024 * 1024 * 1024
    /// How many accounts one address may register per hour.
    public var registrationsPerHour = 10
    /// How many `/api/v1/ws` connections one account may have open.
    public var maxSocketsPerAccount = 32
    /// How many connections (HTTP, WebSocket, TCP) the server holds in all.
    public var maxConnections = 10_000
    /// HTTP requests handled at once; more are answered 503 at once (``InFlightRequests``).
    public var maxPendingRequests = 1000
    /// How many connections one IP address may hold.
    public var maxConnectionsPerAddress = 256
    /// Seconds an HTTP connection may stay silent before a complete request (and a TCP client before `iam:`).
    public var idleTimeout = 30
    /// Seconds a user stays online after their last connection closes, so a reconnect does not flap.
    public var presenceGrace = 5
    /// On PostgreSQL, how long a node's presence rows outlive its last heartbeat (``PostgresPresence``).
    public var presenceTTL = 20
    /// Rooms of more members do not carry presence (``PresenceBroadcaster``).
    public var presenceRoomLimit = 500
    /// Whether the `echo-bot` account answers direct messages (PROTOCOL.md §9.9).
    public var demoBot = true
    /// Whether the server fetches the first link of each message for a preview (PROTOCOL.md §9.15).
    public var linkPreviews = true
    /// The web client's files, served at `/`.
    public var webRoot = ServerConfiguration.defaultWebRoot
    /// How clients outside reach this server (for attachment URLs shown to tutorial clients); empty means
    /// `http://HOST:PORT` as bound.
    public var publicURL = ""
    /// Which server this is, in logs and in `/readyz`; empty: the host name and the HTTP port.
    public var nodeName = ""
    /// The PEM certificate chain and private key for TLS on the HTTP port; both empty: plain HTTP.
    public var tlsCertificate = ""
    public var tlsKey = ""
    /// Whether the TCP text protocol speaks TLS too (with the same certificate).
    public var tcpTLS = false
    /// Whether `/metrics` is served (on its own listener, never the public port).
    public var metrics = true
    /// The address the metrics listener binds to: this machine only unless told otherwise.
    public var metricsHost = "127.0.0.1"
    /// The metrics listener's port (9464, the port Prometheus exporters commonly use); 0 picks a free one.
    public var metricsPort = 9464
    /// How long a bearer token from register or login stays valid.
    public var tokenLifetime: TimeInterval = 30 * 24 * 3600
    /// The least severe level that is logged.
    public var logLevel = Logger.Level.info
    /// `text` or `json` (one object per line).
    public var logFormat = "text"
    /// Whether every HTTP request is logged at `info` rather than `debug`.
    public var accessLog = false
    /// What an ack promises: kept across a crash of the process (default), or across a power loss too.
    public var durability = Durability.process
    /// Seconds between SIGTERM and closing connections, while `/readyz` already says 503.
    public var drainSeconds = 5
    /// Seconds a database outage may last before `/readyz` says 503 (``StoreOutage``).
    public var readyGraceSeconds = 15
    /// How long unterminated TCP bytes wait for more before they count as one command.
    public var tcpIdleFlush: TimeAmount = .milliseconds(100)
    /// The longest TCP command line.
    public var maxTCPLineBytes = 4096

    public init() {}

    /// Where the web client is without a setting: `Public/` beside the directory of the running binary when there
    /// is one (the release archive's `bin/` and `Public/`), else ``sourceWebRoot``.
    public static let defaultWebRoot: String = {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let beside = executable.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Public")
        var isDirectory: ObjCBool = false
        let found =
            FileManager.default.fileExists(atPath: beside.path, isDirectory: &isDirectory) && isDirectory.boolValue
        return found ? beside.path : Self.sourceWebRoot
    }()

    /// `Public/` at the root of the source tree this server was built from: where `swift run chat-server` finds the
    /// web client without any setting.
    public static let sourceWebRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Public").path

    /// `--attachments-dir`; empty: ``attachmentsDirectory`` is `attachments/` in ``dataDirectory``.
    public var attachmentsPath = ""
    /// Whether every node sees the same ``attachmentsDirectory``; required on PostgreSQL, where several nodes may
    /// serve one attachment.
    public var attachmentsShared = false
    /// `--attachments-store`: `files` in ``attachmentsDirectory``, or `postgres` in the database (needs
    /// ``databaseURL``; then no directory needs sharing).
    public var attachmentsStore = "files"
    /// `open`, `invite` or `closed`: who may create an account (PROTOCOL.md §10.1).
    public var registration = "open"
    /// Whether every member may create invitations, not only administrators.
    public var membersMayInvite = false
    /// Days a message is kept; `0`: for ever.
    public var retentionDays = 0
    /// The anonymous tutorial protocols this server speaks.
    public var tutorialProtocols = Set(TutorialProtocol.allCases)
    /// The internal addresses the server may send its own requests to (Web Push), `http` included.
    public var outboundAllow: [AddressRange] = []
    /// Whether the HTTP and TCP listeners expect a PROXY protocol header first on every connection.
    public var proxyProtocol = false
    /// The proxies whose `X-Forwarded-For` is believed.
    public var trustedProxies: [AddressRange] = []
    /// Who runs the server, for push services (VAPID `sub`): `mailto:` or `https:`; empty: the public URL.
    public var vapidSubject = ""
    /// `shown` or `hidden`: whether a push notification carries the message's text.
    public var pushContent = "shown"

    /// Where attachment files live, by content hash.
    public var attachmentsDirectory: String {
        guard self.attachmentsPath.isEmpty else { return self.attachmentsPath }
        return URL(fileURLWithPath: self.dataDirectory).appendingPathComponent("attachments").path
    }

    /// The SQLite file inside ``dataDirectory``.
    public var databasePath: String {
        URL(fileURLWithPath: self.dataDirectory).appendingPathComponent("chat.sqlite").path
    }
}

extension ServerConfiguration {
    /// `--node-name`, or `HOST:PORT` (the process id stands in for a port chosen by the system).
    var resolvedNodeName: String {
        guard self.nodeName.isEmpty else { return self.nodeName }
        let port = self.port == 0 ? "pid\(ProcessInfo.processInfo.processIdentifier)" : String(self.port)
        return "\(ProcessInfo.processInfo.hostName):\(port)"
    }
}

/// One of the tutorials' protocols, which need no account (PROTOCOL.md §2–§4).
public enum TutorialProtocol: String, CaseIterable, Sendable {
    case chat, tcp, echo
}
