import AsyncHTTPClient
import ChatClient
import ChatProtocol
import Foundation
import Logging
import NIOCore
import NIOSSL

/// The demo account `echo-bot`, which answers every direct message about a second later (PROTOCOL.md §9.9), so a
/// newcomer has someone to talk to on first start.
///
/// It is a client like any other, built on ``ChatClient``: a bot (PROTOCOL.md §9.13) signed in with its token, which
/// follows its rooms on `/api/v1/ws` and lets the client reconnect, resume and resend. It answers a message once, with
/// a `clientMsgID` made from the message's room and `seq`, so a repeat is harmless, and marks it read, so a message sent
/// while the bot was away is answered when it comes back, and none twice. Its account is the server's business: the
/// bot asks `token` for its token, again with `renew: true` when the one it has is refused.
public actor EchoBot {
    public static let username = "echo-bot"
    public static let replyDelay = Duration.seconds(1)

    private let server: ServerAddress
    private let token: @Sendable (_ renew: Bool) async throws -> String
    private let tls: TLSConfiguration?
    private let eventLoops: any EventLoopGroup
    private let logger: Logger
    private var runner: Task<Void, Never>?
    private var client: ChatClient?

    /// A bot for the server at `server`; `tls` is how it checks that server's certificate, when it speaks TLS.
    public init(
        server: ServerAddress, tls: TLSConfiguration?, eventLoops: any EventLoopGroup, logger: Logger,
        token: @escaping @Sendable (_ renew: Bool) async throws -> String
    ) {
        self.server = server
        self.tls = tls
        self.eventLoops = eventLoops
        self.logger = logger
        self.token = token
    }

    public func start() {
        guard self.runner == nil else { return }
        self.runner = Task { await self.run() }
    }

    /// Stops answering; replies still waiting for their delay are dropped (their messages stay unread, so the
    /// next start answers them).
    public func stop() async {
        let runner = self.runner
        runner?.cancel()
        await self.client?.stop()
        await runner?.value
        self.runner = nil
    }

    /// Signs in and stays connected; signs in again after a pause whenever the session is refused.
    private func run() async {
        let http = HTTPClient(
            eventLoopGroupProvider: .shared(self.eventLoops),
            configuration: HTTPClient.Configuration(tlsConfiguration: self.tls))
        var pause = Duration.seconds(1)
        while !Task.isCancelled {
            do {
                var configuration = ChatClient.Configuration()
                configuration.tlsConfiguration = self.tls
                configuration.logger = self.logger
                let client = ChatClient(
                    server: self.server, session: try await self.session(http), configuration: configuration,
                    http: http, eventLoops: self.eventLoops)
                self.client = client
                try await self.converse(client)
                pause = .seconds(1)
            } catch  where !Task.isCancelled {
                self.logger.warning("echo-bot: \(error)")
            } catch {}
            await self.client?.stop()
            self.client = nil
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(30))
        }
        try? await http.shutdown()
    }

    /// A session with the token the server gave; when it is refused (the secret file was lost, or another node
    /// made a new one), with a new one.
    private func session(_ http: HTTPClient) async throws -> AuthSession {
        let api = ChatAPI(server: self.server, http: http)
        let token = try await self.token(false)
        do {
            return AuthSession(token: token, expiresAt: .max, user: try await api.me(token: token))
        } catch ChatClientError.unauthorized {
            let renewed = try await self.token(true)
            return AuthSession(token: renewed, expiresAt: .max, user: try await api.me(token: renewed))
        }
    }

    /// One session: follows every direct room from where the bot last read it and answers what arrives, until the
    /// session is refused or the bot stops.
    private func converse(_ client: ChatClient) async throws {
        guard let me = await client.session?.user.id else { return }
        var direct: Set<String> = []
        for room in try await client.rooms() where room.roomKind == .direct {
            direct.insert(room.id)
            await client.follow(room: room.id, after: room.lastReadSeq)
        }
        let events = await client.connect()
        await withDiscardingTaskGroup { answers in
            for await event in events {
                switch event {
                case .state(.failed(let error)):
                    self.logger.warning("echo-bot: signed out: \(error)")
                    answers.cancelAll()
                    return
                case .hello:
                    // A direct room opened between the list above and this connection is followed from now on.
                    for room in (try? await client.rooms()) ?? []
                    where room.roomKind == .direct && !direct.contains(room.id) {
                        direct.insert(room.id)
                        for message in await Self.unread(room, from: me, with: client) {
                            answers.addTask { await Self.answer(message, with: client) }
                        }
                    }
                case .joined(let room) where room.roomKind == .direct:
                    direct.insert(room.id)
                    for message in await Self.unread(room, from: me, with: client) {
                        answers.addTask { await Self.answer(message, with: client) }
                    }
                case .message(let message, _) where direct.contains(message.room) && Self.deserves(message, from: me):
                    answers.addTask { await Self.answer(message, with: client) }
                default:
                    continue
                }
            }
        }
    }

    /// What a room followed from now on already holds unread, to answer: the live stream will not bring it. A
    /// message answered twice this way is stored once (its reply's `clientMsgID` is the same).
    private static func unread(_ room: RoomSummary, from me: UUID, with client: ChatClient) async -> [MessagePayload] {
        guard room.unreadCount > 0, let page = try? await client.history(room: room.id) else { return [] }
        return page.messages.filter { $0.seq > room.lastReadSeq && Self.deserves($0, from: me) }
    }

    /// Someone else's message with text, not an edit or a reaction, not deleted.
    private static func deserves(_ message: MessagePayload, from me: UUID) -> Bool {
        message.eventKind == .message && message.deleted != true && !message.text.isEmpty && message.sender.id != me
    }

    /// Replies after ``replyDelay``; the reply marks the room read up to it (PROTOCOL.md §8.5).
    private static func answer(_ message: MessagePayload, with client: ChatClient) async {
        guard (try? await Task.sleep(for: Self.replyDelay)) != nil else { return }
        let reply = EchoReply.reply(to: message.text)
        _ = try? await client.send(reply, to: message.room, clientMsgID: "echo-\(message.room)-\(message.seq)")
    }
}
