import ChatCore
import ChatPersistence
import ChatProtocol
import ChatUseCases
import Fluent
import FluentSQLiteDriver
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import SQLKit
import Vapor

/// A running SwiftChat server: HTTP and WebSocket on one port, the TCP text protocol on another, one database
/// (SQLite, or PostgreSQL shared with other nodes), one hub of rooms. `chat-server` runs exactly one; every integration test starts its own on port 0.
public final class ChatService: Sendable {
    private let application: Application
    private let eventLoops: MultiThreadedEventLoopGroup
    /// Released at shutdown before the event loops stop: NIO's quiescing helper inside it completes a promise
    /// on one of them when it is deallocated.
    private let tcpListener: NIOLockedValueBox<TCPListener?>
    private let hub: Hub
    /// The database, closed last.
    private let storage: any ServerStorage
    private let hasher: BcryptPool
    private let bot: OneNodeRun?
    private let presence: Presence
    private let background: BackgroundTasks
    private let sweeper: UnsentAttachmentSweeper
    private let readiness: Readiness
    private let metricsEndpoint: MetricsEndpoint?
    /// The certificates of the TLS listeners, reloaded on SIGHUP.
    private let tls: TLSCertificates?
    private let loopWatch: [RepeatedTask]
    private let drainTime: Duration
    private let logger: Logger

    /// The HTTP/WebSocket port actually bound (useful with port 0).
    public let httpPort: Int
    /// The TCP port actually bound.
    public let tcpPort: Int
    /// The address both listen on.
    public let host: String
    /// The metrics listener's port, if it runs.
    public var metricsPort: Int? { self.metricsEndpoint?.port }

    private init(
        application: Application, eventLoops: MultiThreadedEventLoopGroup, tcpListener: TCPListener?, hub: Hub,
        storage: any ServerStorage, hasher: BcryptPool, bot: OneNodeRun?,
        presence: Presence,
        background: BackgroundTasks, sweeper: UnsentAttachmentSweeper, readiness: Readiness,
        metrics: (endpoint: MetricsEndpoint?, loopWatch: [RepeatedTask]), tls: TLSCertificates?, drainTime: Duration,
        logger: Logger, host: String, httpPort: Int, tcpPort: Int
    ) {
        self.tls = tls
        self.metricsEndpoint = metrics.endpoint
        self.loopWatch = metrics.loopWatch
        self.bot = bot
        self.presence = presence
        self.background = background
        self.sweeper = sweeper
        self.readiness = readiness
        self.drainTime = drainTime
        self.application = application
        self.eventLoops = eventLoops
        self.tcpListener = NIOLockedValueBox(tcpListener)
        self.hub = hub
        self.storage = storage
        self.hasher = hasher
        self.logger = logger
        self.host = host
        self.httpPort = httpPort
        self.tcpPort = tcpPort
    }

    /// The host part of a URL that reaches a listener bound to `host` from this machine: loopback for a wildcard
    /// address, brackets around an IPv6 literal.
    static func urlHost(reaching host: String) -> String {
        if ["0.0.0.0", "::"].contains(host) { return "127.0.0.1" }
        return host.contains(":") ? "[\(host)]" : host
    }

    /// Opens (and if needed creates and migrates) the database, then starts both listeners. `time` is what the
    /// typing throttle and presence's grace period read (tests move it by hand).
    public static func start(
        _ configuration: ServerConfiguration, logger: Logger = Logger(label: "swiftchat"),
        time: any TimeSource = SystemTime()
    ) async throws -> ChatService {
        var logger = logger
        logger.logLevel = configuration.logLevel
        // Which server a line comes from, once several run behind one load balancer.
        logger[metadataKey: "node"] = "\(configuration.resolvedNodeName)"
        let threads = configuration.eventLoops > 0 ? configuration.eventLoops : AvailableCPUs.count
        let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let application = try await Application.make(
            Environment(name: "production", arguments: ["chat-server"]), .shared(eventLoops))
        application.logger = Self.frameworkLogger(logger)
        BlockingThreads.install(on: application, eventLoops: threads)
        let metrics = ServerMetrics(version: SwiftChatVersion.current)
        application.serverMetrics = metrics
        application.clientAddresses = ClientAddresses(trustedProxies: configuration.trustedProxies)
        var storage: (hub: Hub, storage: any ServerStorage)?
        var bcrypt: BcryptPool?
        do {
            let tls = try Self.certificates(configuration)
            let notifications = PushNotifications()
            let outgoing = OutgoingWebhooks()
            let previews = configuration.linkPreviews ? LinkPreviews(time: time) : nil
            let (hub, database) = try await self.openStorage(
                application, configuration: configuration, metrics: metrics, logger: logger, time: time,
                observer: CommitObservers([notifications, outgoing] + (previews.map { [$0] } ?? [])))
            storage = (hub, database)
            let lobby = try await hub.room(.lobby)
            let hasher = BcryptPool(cost: configuration.bcryptCost, threads: max(1, AvailableCPUs.count / 2))
            let readiness = Readiness(
                requestLimit: configuration.maxPendingRequests, refusals: metrics.refusals(.requests))
            bcrypt = hasher
            let publicURL = PublicURL(configured: configuration.publicURL)
            let endpoints = try await Self.endpoints(
                application, hub: hub, storage: database, hasher: hasher, readiness: readiness,
                configuration: configuration, publicURL: publicURL, notifications: notifications, outgoing: outgoing,
                previews: previews, logger: logger,
                time: time)
            let tutorialText = TutorialText(publicURL: publicURL)
            let sendLimit = TutorialSendLimit(
                burst: configuration.tutorialSendBurst, rate: configuration.tutorialSendRate, time: time,
                refusals: metrics.refusals(.tutorialSend))
            application.registerRoutes(
                lobby: lobby, endpoints: endpoints, tutorialText: tutorialText, sendLimit: sendLimit,
                configuration: configuration)
            application.configureHTTP(configuration, readiness: readiness, logger: logger)
            let descriptors = FileDescriptorLimit.current
            let maxConnections = FileDescriptorLimit.connections(
                configured: configuration.maxConnections, limit: descriptors)
            if let descriptors, maxConnections < configuration.maxConnections {
                logger.warning(
                    "--max-connections \(configuration.maxConnections) is more than this process's descriptor limit of \(descriptors) allows; accepting \(maxConnections) (raise LimitNOFILE or ulimit -Hn for more)"
                )
            }
            let connections = ConnectionCounts(
                maxTotal: maxConnections, maxPerAddress: configuration.maxConnectionsPerAddress,
                refusals: metrics.refusals(.connections))
            try await application.startHTTP(configuration, connections: connections, tls: tls, logger: logger)
            let serveTCP = configuration.tutorialProtocols.contains(.tcp)
            let tcp =
                try await !serveTCP
                ? nil
                : ChatServiceError.naming("--tcp-port", host: configuration.host, port: configuration.tcpPort) {
                    try await TCPListener.start(
                        host: configuration.host, port: configuration.tcpPort, group: application.eventLoopGroup,
                        lobby: lobby,
                        tutorialText: tutorialText, sendLimit: sendLimit, connections: connections,
                        metrics: metrics.connections(.tcp),
                        tls: configuration.tcpTLS ? tls : nil, addresses: ClientAddresses(trustedProxies: []),
                        configuration: configuration, logger: logger)
                }
            let httpPort = application.http.server.shared.localAddress?.port ?? configuration.port
            let scheme = tls == nil ? "http" : "https"
            let localURL = "\(scheme)://\(Self.urlHost(reaching: configuration.host)):\(httpPort)"
            publicURL.bound(at: localURL)
            let tcpPort = tcp.map { $0.port ?? configuration.tcpPort } ?? 0
            let paths = [
                configuration.tutorialProtocols.contains(.chat) ? "/chat" : nil,
                configuration.tutorialProtocols.contains(.echo) ? "/echo/?id=NAME" : nil, "/api/v1",
            ]
            logger.notice(
                "HTTP and WebSocket listening on \(scheme)://\(configuration.host):\(httpPort) (\(paths.compactMap { $0 }.joined(separator: ", ")))"
            )
            if tcp != nil {
                logger.notice(
                    "TCP text protocol listening on \(configuration.host):\(tcpPort) (iam:NAME, msg:TEXT)\(configuration.tcpTLS ? " over TLS" : "")"
                )
            }
            let metricsEndpoint = try await Self.startMetrics(
                configuration, metrics: metrics, group: application.eventLoopGroup, logger: logger)
            let loopWatch = metrics.watchEventLoops(eventLoops)
            let bot = await Self.startDemoBot(
                configuration, at: localURL, tls: tls, account: endpoints.demoBot, storage: database,
                group: application.eventLoopGroup, logger: logger)
            return ChatService(
                application: application, eventLoops: eventLoops, tcpListener: tcp, hub: hub, storage: database,
                hasher: hasher, bot: bot, presence: endpoints.modern.presence, background: endpoints.modern.background,
                sweeper: endpoints.sweeper, readiness: readiness, metrics: (metricsEndpoint, loopWatch), tls: tls,
                drainTime: .seconds(configuration.drainSeconds), logger: logger, host: configuration.host,
                httpPort: httpPort, tcpPort: tcpPort)
        } catch {
            await bcrypt?.shutdown()
            if let storage {
                await storage.hub.close()
                await storage.storage.close()
            }
            await application.server.shutdown()
            try? await application.asyncShutdown()
            try? await eventLoops.shutdownGracefully()
            throw error
        }
    }

    /// The controllers and the modern protocol's shared parts, on the stores of one database.
    private static func endpoints(
        _ application: Application, hub: Hub, storage: any ServerStorage, hasher: BcryptPool, readiness: Readiness,
        configuration: ServerConfiguration, publicURL: PublicURL, notifications: PushNotifications,
        outgoing: OutgoingWebhooks, previews: LinkPreviews?,
        logger: Logger, time: any TimeSource
    ) async throws -> Endpoints {
        let accountStore = FluentAccountStore(database: application.db)
        let directory = storage.roomDirectory(application.db)
        let attachments = FluentAttachmentStore(database: application.db)
        try await directory.ensureLobby()
        let sessions = SessionRegistry()
        let broadcaster = PresenceBroadcaster(
            directory: directory, roomLimit: configuration.presenceRoomLimit, accounts: accountStore,
            sessions: sessions, logger: logger)
        let echo = EchoRelay()
        // From here on, other nodes' commits reach the hub's rooms, and their other news this node's connections.
        let links = storage.follow(
            LocalReach(hub: hub, sessions: sessions, presence: broadcaster, echo: echo), configuration: configuration)
        let liveSessions = links.sessions
        let presence = Presence(
            grace: .seconds(configuration.presenceGrace), time: time, announcer: links.presence)
        let blocks = FluentBlockStore(database: application.db)
        let summaries = RoomSummaries(
            directory: directory, accounts: accountStore, messages: hub.store, blocks: blocks)
        let access = RoomAccess(directory: directory)
        let history = History(access: access, messages: hub.store)
        let reads = Reads(access: access, hub: hub)
        // One send limit per account, whether it sends over the socket or over HTTP.
        let sendChecks = SendChecks(
            local: LocalSendLimit(burst: configuration.sendBurst, rate: configuration.sendRate, time: time),
            atCommit: storage.checksSendsAtCommit)
        let files = AttachmentFiles(
            directory: configuration.attachmentsDirectory, node: configuration.resolvedNodeName,
            threadPool: application.threadPool)
        files.removeTemporaryFiles()
        let authenticate = Authenticate(accounts: accountStore)
        let attachmentRules = Attachments(
            store: attachments, contents: storage.attachmentContents(files, configuration: configuration),
            directory: directory, authenticate: authenticate, quotaBytes: configuration.uploadQuotaBytes)
        let blocking = Blocking(
            blocks: blocks, accounts: accountStore, directory: directory, hub: hub,
            sessions: liveSessions)
        let membership = RoomMembership(
            directory: directory, accounts: accountStore, hub: hub, sessions: liveSessions, blocking: blocking,
            time: time)
        let background = BackgroundTasks()
        let sweeper = UnsentAttachmentSweeper(attachments: attachmentRules, time: time, logger: logger)
        background.run { await sweeper.run() }
        guard let sql = application.db as? any SQLDatabase else { throw ChatServiceError.searchNeedsSQL }
        if configuration.retentionDays > 0 {
            let retention = Retention(aged: SQLAgedMessages(sql: sql), hub: hub, days: configuration.retentionDays)
            let retentionSweeper = RetentionSweeper(retention: retention, time: time, logger: logger)
            background.run { await retentionSweeper.run() }
        }
        let accounts = Accounts(
            store: accountStore, directory: directory, presence: presence, sessions: liveSessions,
            blocking: blocking, hasher: hasher, loginThrottle: LoginThrottle(time: time),
            registrationLimiter: AttemptLimiter(
                time: time, burst: configuration.registrationsPerHour,
                refill: .seconds(3600) / configuration.registrationsPerHour),
            tokenLifetime: configuration.tokenLifetime,
            registration: RegistrationMode(rawValue: configuration.registration) ?? .open,
            unknownUserDigest: try await hasher.hash(BearerToken.generate()))
        let audit = FluentAuditLog(database: application.db)
        let administration = Administration(
            accounts: accountStore, directory: directory, audit: audit, sessions: liveSessions,
            publicURL: { publicURL.value })
        let roomModeration = RoomModeration(
            directory: directory, accounts: accountStore, messages: hub.store, hub: hub, sessions: liveSessions,
            audit: audit)
        let sent = SQLSentMessages(sql: sql)
        let pushStore = FluentPushSubscriptionStore(database: application.db)
        let vapidKey = try await pushStore.vapidKey(orMake: VAPID.newKey)
        let vapid = try VAPID(rawKey: vapidKey, subject: "")
        let subject = configuration.vapidSubject
        let outbound = GuardedHTTPClient(
            policy: OutboundPolicy(allowed: configuration.outboundAllow),
            resolver: HostAddresses(pool: application.threadPool), eventLoops: application.eventLoopGroup,
            logger: logger, metrics: application.serverMetrics.factory)
        let sender = WebPushSender(
            http: outbound,
            vapid: { VAPID(key: vapid.key, subject: subject.isEmpty ? publicURL.value : subject) }, store: pushStore,
            logger: logger, metrics: application.serverMetrics.factory)
        let pushContext = PushNotifications.Context(
            audience: SQLPushAudience(sql: sql), presence: presence, directory: directory, sending: sender,
            content: PushNotifications.Content(rawValue: configuration.pushContent) ?? .shown,
            publicURL: { publicURL.value })
        background.run { await notifications.run(pushContext) }
        let botStore = FluentBotStore(database: application.db)
        let bots = Bots(
            store: botStore, accounts: accountStore, hub: hub, sessions: liveSessions,
            unusableDigest: accounts.unusableDigest, policy: OutboundPolicy(allowed: configuration.outboundAllow),
            webhookSet: outgoing.webhookSet)
        let poster = WebhookPoster(http: outbound)
        let outgoingContext = OutgoingWebhooks.Context(
            store: botStore, directory: directory, hub: hub, maxMessageBytes: configuration.maxMessageBytes,
            publicURL: { publicURL.value },
            post: { try await poster.post($0, signature: $1, to: $2) },
            logger: { logger.notice("\($0)") })
        background.run { await outgoing.run(outgoingContext) }
        if let previews {
            let fetcher = LinkPreviewFetcher(
                http: outbound, attachments: attachmentRules, receivingDirectory: files.temporaryDirectory,
                threadPool: files.threadPool, maxImageBytes: configuration.maxUploadBytes)
            let previewContext = LinkPreviews.Context(
                cache: FluentLinkPreviewCache(database: application.db), hub: hub, page: fetcher.page,
                image: { try await fetcher.image($0, uploader: $1) }, logger: { logger.notice("\($0)") })
            background.run { await previews.run(previewContext) }
        }
        let postMessage = PostMessage(
            access: access, hub: hub, messages: hub.store, sendChecks: sendChecks,
            maxMessageBytes: configuration.maxMessageBytes)
        let deletion = AccountDeletion(
            administration: administration, accounts: accountStore, bots: bots, sent: sent, hub: hub,
            sessions: liveSessions, unusableDigest: accounts.unusableDigest)
        return Endpoints(
            authenticate: authenticate,
            accounts: AccountController(
                accounts: accounts, export: ExportAccount(directory: directory, sent: sent), blocking: blocking,
                deletion: deletion),
            rooms: RoomsController(
                summaries: summaries,
                membership: membership,
                renameRoom: RenameRoom(access: access, hub: hub, time: time), history: history,
                reads: reads,
                postMessage: postMessage,
                preferences: RoomPreferences(access: access, maxDraftBytes: configuration.maxMessageBytes),
                removePreview: RemovePreview(access: access, hub: hub)),
            roomModeration: RoomModerationController(moderation: roomModeration),
            reports: ReportsController(
                reports: Reports(
                    store: FluentReportStore(database: application.db), directory: directory, messages: hub.store,
                    moderation: roomModeration, administration: administration, audit: audit)),
            attachments: AttachmentsController(
                attachments: attachmentRules, receivingDirectory: files.temporaryDirectory,
                threadPool: files.threadPool, maxUploadBytes: configuration.maxUploadBytes, uploads: UploadSlots()),
            avatars: AvatarsController(
                avatars: Avatars(
                    store: FluentAvatarStore(database: application.db), attachments: attachmentRules, access: access),
                attachments: attachmentRules, receivingDirectory: files.temporaryDirectory,
                threadPool: files.threadPool),
            search: SearchController(
                search: SearchMessages(search: storage.search, access: access, accounts: accountStore),
                mentions: MentionsOfMe(mentioned: SQLMentionedMessages(sql: sql))),
            push: PushController(
                subscriptions: PushSubscriptions(
                    store: pushStore, policy: OutboundPolicy(allowed: configuration.outboundAllow),
                    publicKey: vapid.publicKey, subscribed: notifications.subscribed)),
            bots: BotsController(bots: bots, replies: BotReplies(store: botStore, postMessage: postMessage)),
            pins: MessagePinsController(
                pins: MessagePins(
                    access: access, hub: hub, messages: hub.store, pins: storage.pins, time: time)),
            contacts: ContactsController(
                contacts: Contacts(
                    store: FluentContactStore(database: application.db), accounts: accountStore, blocking: blocking)),
            webhooks: WebhooksController(
                webhooks: IncomingWebhooks(
                    store: FluentWebhookStore(database: application.db), access: access, accounts: accountStore,
                    hub: hub, maxMessageBytes: configuration.maxMessageBytes, time: time,
                    publicURL: { publicURL.value })),
            admin: AdminController(
                administration: administration, moderation: Moderation(directory: directory, hub: hub, audit: audit),
                roomModeration: roomModeration, deletion: deletion),
            invites: InvitesController(
                invitations: Invitations(
                    store: FluentInvitationStore(database: application.db), access: access,
                    membersMayInvite: configuration.membersMayInvite, publicURL: { publicURL.value })),
            demoBot: DemoBotAccount(
                accounts: accountStore, bots: botStore, directory: directory,
                dataDirectory: configuration.dataDirectory, unusableDigest: accounts.unusableDigest),
            config: ConfigController(configuration: configuration),
            health: HealthController(
                readiness: readiness, outage: StoreOutage(grace: .seconds(configuration.readyGraceSeconds)),
                database: sql, storageChecks: { storage.readinessChecks },
                nodeName: configuration.resolvedNodeName),
            sweeper: sweeper,
            echo: echo,
            modern: ModernContext(
                hub: hub, access: access, membership: membership, attachments: attachmentRules, sessions: sessions,
                presence: presence, presenceBroadcaster: broadcaster, background: background, summaries: summaries,
                history: history, reads: reads,
                sendChecks: sendChecks, maxMessageBytes: configuration.maxMessageBytes,
                maxReplay: configuration.maxReplay,
                maxSocketsPerAccount: configuration.maxSocketsPerAccount, metrics: application.serverMetrics))
    }

    /// The logger handed to Vapor, Fluent and SQLite: never below `info`, because at `debug` and `trace` they log
    /// request URIs (with `?token=`), queries and their bound values (message texts, password digests). SwiftChat's
    /// own lines keep the configured level (docs/OPERATIONS.md).
    private static func frameworkLogger(_ logger: Logger) -> Logger {
        var quieter = logger
        quieter.logLevel = max(logger.logLevel, .info)
        return quieter
    }

    /// Opens the database `configuration` names (PostgreSQL with `--database-url`, else SQLite in the data
    /// directory) and the hub of rooms on its message store.
    private static func openStorage(
        _ application: Application, configuration: ServerConfiguration, metrics: ServerMetrics, logger: Logger,
        time: any TimeSource, observer: any CommitObserver
    ) async throws -> (Hub, any ServerStorage) {
        let storage: any ServerStorage
        if configuration.databaseURL != nil, configuration.attachmentsStore == "files", !configuration.attachmentsShared
        {
            // Each node would keep the files uploaded through it, and the others would answer 404 for them.
            throw ChatServiceError.attachmentsNotShared(directory: configuration.attachmentsDirectory)
        }
        if let url = configuration.databaseURL {
            try DataDirectory.prepare(configuration.dataDirectory)
            storage = try await PostgresStorage.open(
                application, url: url,
                sendLimit: SendLimitRule(burst: configuration.sendBurst, rate: configuration.sendRate),
                metrics: metrics, logger: Self.frameworkLogger(logger))
        } else {
            storage = try await SQLiteStorage.open(
                application, configuration: configuration, metrics: metrics, logger: Self.frameworkLogger(logger))
        }
        let hub = Hub(
            eventLoops: application.eventLoopGroup, store: storage.messages,
            recentCapacity: max(configuration.historyOnJoin, configuration.tcpHistoryOnJoin), metrics: metrics.rooms,
            relay: storage.relay, logger: logger, time: time, observer: observer)
        return (hub, storage)
    }

    /// Reads `--tls-cert` and `--tls-key` again (on SIGHUP): new connections get the new certificate, open ones keep
    /// theirs. Files that do not load leave the old certificate in use, and the log says why. Returns whether a new
    /// certificate is in use.
    @discardableResult
    public func reloadCertificates() -> Bool {
        guard let tls = self.tls else {
            self.logger.notice("SIGHUP: no --tls-cert to reload; nothing changes")
            return false
        }
        do {
            try tls.reload()
            self.logger.notice("reloaded the TLS certificate from \(tls.certificatePath) and its key")
            return true
        } catch {
            self.logger.error("kept the TLS certificate in use: \(error)")
            return false
        }
    }

    /// How many connections are in the lobby right now (for tests and diagnostics).
    package func lobbyMemberCount() async throws -> Int {
        try await self.hub.room(.lobby).memberCount
    }

    /// How many bcrypt jobs have run since start (for tests).
    package var passwordHashesComputed: Int { self.hasher.jobsRun }

    /// Runs the unsent-attachment sweep now, as if the clock said `now` (for tests; it runs by itself hourly).
    package func sweepUnsentAttachments(now: Date) async {
        await self.sweeper.sweep(now: now)
    }

    /// Graceful shutdown, as for a rolling restart: `/readyz` answers 503 at once and the server goes on serving for
    /// the drain time (a load balancer stops sending new clients), then it stops accepting, closes TCP clients with
    /// a last line and WebSockets with 1012 ("service restart": reconnect, elsewhere if you like), finishes every
    /// pending commit, closes the database and stops the event loops.
    public func shutdown() async {
        self.readiness.startDraining()
        if self.drainTime > .zero {
            self.logger.notice("draining for \(self.drainTime) before closing connections")
            try? await Task.sleep(for: self.drainTime)
        }
        self.logger.notice("shutting down")
        await self.bot?.stop()
        await self.tcpListener.withLockedValue { $0 }?.shutdown()
        self.tcpListener.withLockedValue { $0 = nil }
        await self.application.server.shutdown()
        await self.metricsEndpoint?.close()
        for task in self.loopWatch { task.cancel() }
        await self.presence.close()
        let leftBehind = await self.background.close()
        if leftBehind > 0 {
            self.logger.warning("\(leftBehind) connection task(s) still waiting on the database after 20 s; going on")
        }
        await self.hub.close()
        await self.storage.close()
        await self.hasher.shutdown()
        // Handlers still running (a bcrypt that just failed, an upgrade) hand their responses to event loops that
        // must still be running.
        await self.readiness.requests.finished(within: .seconds(10))
        try? await self.application.asyncShutdown()
        try? await self.eventLoops.shutdownGracefully()
    }
}

/// Why the server could not start.
enum ChatServiceError: Error, CustomStringConvertible {
    /// Search runs SQL of its own; the database must speak SQL.
    case searchNeedsSQL
    /// Vapor's listening channel could not be found (see `HTTPServer.listeningChannel`), so connection limits and
    /// header deadlines could not be installed.
    case connectionLimitsUnavailable
    /// The Prometheus listener could not listen (most often: another server already uses the port).
    case metricsListener(host: String, port: Int, reason: String)
    /// The HTTP or TCP listener could not listen; `flag` is the setting that chose the port.
    case listener(flag: String, host: String, port: Int, reason: String)
    /// `--database-url` names a database this server cannot use; `url` is shown without its password.
    case databaseUnavailable(url: String, reason: String)
    /// On PostgreSQL, where several nodes serve one community, the attachments directory is not said to be shared.
    case attachmentsNotShared(directory: String)

    /// Runs `listen`, a listener's start on `port`, reporting a failure as the setting `flag` that chose the port.
    static func naming<Listener>(
        _ flag: String, host: String, port: Int, _ listen: () async throws -> Listener
    ) async throws -> Listener {
        do {
            return try await listen()
        } catch {
            throw ChatServiceError.listener(flag: flag, host: host, port: port, reason: "\(error)")
        }
    }

    var description: String {
        switch self {
        case .searchNeedsSQL: "search needs an SQL database"
        case .connectionLimitsUnavailable: "the HTTP listener could not be found to install the connection limits"
        case .listener(let flag, let host, let port, let reason):
            "\(flag) \(port): cannot listen on \(host):\(port) (\(reason)); another program, perhaps another chat-server, may use it: choose another port with \(flag)"
        case .metricsListener(let host, let port, let reason):
            "--metrics-port \(port): the metrics listener cannot listen on \(host):\(port) (\(reason)); choose another port, or turn it off with --metrics false"
        case .databaseUnavailable(let url, let reason):
            "--database-url \(url): cannot connect to the database: \(reason)"
        case .attachmentsNotShared(let directory):
            "--attachments-dir \(directory): with --database-url, every node must see every attachment; put the directory on storage all nodes mount and set --attachments-shared true (docs/DEPLOYMENT.md)"
        }
    }
}

/// Everything the routes serve.
struct Endpoints: Sendable {
    /// Who a bearer token belongs to, for every route that needs to know.
    let authenticate: Authenticate
    let accounts: AccountController
    let rooms: RoomsController
    let roomModeration: RoomModerationController
    let reports: ReportsController
    let attachments: AttachmentsController
    let avatars: AvatarsController
    let search: SearchController
    let push: PushController
    let bots: BotsController
    let pins: MessagePinsController
    let contacts: ContactsController
    let webhooks: WebhooksController
    let admin: AdminController
    let invites: InvitesController
    /// The demo bot's account, made on first start (`--demo-bot`).
    let demoBot: DemoBotAccount
    let config: ConfigController
    let health: HealthController
    let sweeper: UnsentAttachmentSweeper
    let echo: EchoRelay
    let modern: ModernContext
}
