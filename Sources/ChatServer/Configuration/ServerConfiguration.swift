import Foundation
import Logging
import NIOCore

/// Every setting of the server, read once at start-up.
///
/// Each setting has a command-line flag and an environment variable; a flag wins over the variable, the
/// variable over the default. `chat-server --help` prints the same table.
///
/// | flag | variable | type | default |
/// |---|---|---|---|
/// | `--host` | `CHAT_HOST` | address | `127.0.0.1` |
/// | `--port` | `CHAT_PORT` | port (0 = any free) | `8080` |
/// | `--tcp-port` | `CHAT_TCP_PORT` | port (0 = any free) | `8081` |
/// | `--data-dir` | `CHAT_DATA_DIR` | directory | `./data` |
/// | `--history-on-join` | `CHAT_HISTORY_ON_JOIN` | count | `50` |
/// | `--tcp-history-on-join` | `CHAT_TCP_HISTORY_ON_JOIN` | count | `0` |
/// | `--max-message-bytes` | `CHAT_MAX_MESSAGE_BYTES` | bytes | `4096` |
/// | `--max-frame-bytes` | `CHAT_MAX_FRAME_BYTES` | bytes | `65536` |
/// | `--echo-max-message-bytes` | `CHAT_ECHO_MAX_MESSAGE_BYTES` | bytes | `16777216` |
/// | `--outbound-queue-bytes` | `CHAT_OUTBOUND_QUEUE_BYTES` | bytes | `1048576` |
/// | `--announce-joins` | `CHAT_ANNOUNCE_JOINS` | bool | `true` |
/// | `--event-loops` | `CHAT_EVENT_LOOPS` | count (0 = one per CPU the process may use) | `0` |
/// | `--bcrypt-cost` | `CHAT_BCRYPT_COST` | 4…16 | `12` |
/// | `--ping-interval` | `CHAT_PING_INTERVAL` | seconds | `30` |
/// | `--max-replay` | `CHAT_MAX_REPLAY` | count | `1000` |
/// | `--send-burst` | `CHAT_SEND_BURST` | messages | `20` |
/// | `--send-rate` | `CHAT_SEND_RATE` | messages per second | `10` |
/// | `--max-upload-bytes` | `CHAT_MAX_UPLOAD_BYTES` | bytes | `10485760` |
/// | `--presence-grace` | `CHAT_PRESENCE_GRACE` | seconds | `5` |
/// | `--demo-bot` | `CHAT_DEMO_BOT` | bool | `true` |
/// | `--web-root` | `CHAT_WEB_ROOT` | directory | the source tree's `Public/` |
/// | `--public-url` | `CHAT_PUBLIC_URL` | URL | `http://HOST:PORT` as bound |
/// | `--log-level` | `LOG_LEVEL` | trace…critical | `info` |
public struct ServerConfiguration: Sendable, Equatable {
    /// The address both listeners bind to.
    public var host = "127.0.0.1"
    /// The HTTP and WebSocket port; 0 picks a free one.
    public var port = 8080
    /// The TCP text-protocol port; 0 picks a free one.
    public var tcpPort = 8081
    /// Where `chat.sqlite` lives; created on first start.
    public var dataDirectory = "./data"
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
    /// Seconds between the modern WebSocket's keepalive pings; a client silent for two intervals is dropped.
    public var pingInterval = 30
    /// The most messages a modern client gets replayed when it resumes a room; a larger gap asks it to page.
    public var maxReplay = 1000
    /// How many messages a user may send over `/api/v1/ws` at once before the rate limit applies.
    public var sendBurst = 20
    /// How many messages per second a user may send over `/api/v1/ws` after the burst.
    public var sendRate = 10
    /// The largest attachment upload, in bytes.
    public var maxUploadBytes = 10 * 1024 * 1024
    /// Seconds a user stays online after their last connection closes, so a reconnect does not flap.
    public var presenceGrace = 5
    /// Whether the `echo-bot` account answers direct messages (PROTOCOL.md §9.9).
    public var demoBot = true
    /// The web client's files, served at `/`.
    public var webRoot = ServerConfiguration.sourceWebRoot
    /// How clients outside reach this server (for attachment URLs shown to tutorial clients); empty means
    /// `http://HOST:PORT` as bound.
    public var publicURL = ""
    /// How long a bearer token from register or login stays valid.
    public var tokenLifetime: TimeInterval = 30 * 24 * 3600
    /// The least severe level that is logged.
    public var logLevel = Logger.Level.info
    /// How long unterminated TCP bytes wait for more before they count as one command.
    public var tcpIdleFlush: TimeAmount = .milliseconds(100)
    /// The longest TCP command line.
    public var maxTCPLineBytes = 4096

    public init() {}

    /// `Public/` at the root of the source tree this server was built from: where `swift run chat-server` finds the
    /// web client without any setting.
    public static let sourceWebRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Public").path

    /// Where attachment files live, by content hash.
    public var attachmentsDirectory: String {
        URL(fileURLWithPath: self.dataDirectory).appendingPathComponent("attachments").path
    }

    /// The SQLite file inside ``dataDirectory``.
    public var databasePath: String {
        URL(fileURLWithPath: self.dataDirectory).appendingPathComponent("chat.sqlite").path
    }
}
