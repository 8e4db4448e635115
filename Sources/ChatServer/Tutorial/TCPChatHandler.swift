import ChatCore
import ChatProtocol
import Logging
import Metrics
import NIOCore

/// One TCP client of the DogeChat text protocol (`iam:NAME`, `msg:TEXT`), usable with `nc`.
///
/// Lines end at `\n` or `\r\n`; bytes with no terminator count as one command once the client has been quiet
/// for ``idleFlush`` (the DogeChat iOS client sends each command as one unterminated write). Every mistake gets
/// an `err:` line and the connection stays open.
final class TCPChatHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let lobby: Room
    private let renderer: TCPLineRenderer
    private let idleFlush: TimeAmount
    private let history: Int
    private let sendLimit: TutorialSendLimit
    /// Who the listener's clients are, behind a proxy.
    private let addresses: ClientAddresses
    /// How long a client may stay without `iam:` before it is closed.
    private let joinDeadline: TimeAmount
    private let metrics: ConnectionMetrics
    private let logger: Logger
    private var joinTimer: Scheduled<Void>?
    private var framer: TCPLineFramer
    private var connection: TCPConnection?
    private var name: String?
    private var pendingFlush: Scheduled<Void>?

    init(
        lobby: Room, renderer: TCPLineRenderer, maxLineBytes: Int, idleFlush: TimeAmount, history: Int,
        sendLimit: TutorialSendLimit, addresses: ClientAddresses,
        joinDeadline: TimeAmount, metrics: ConnectionMetrics, logger: Logger
    ) {
        self.addresses = addresses
        self.lobby = lobby
        self.metrics = metrics
        self.logger = logger
        self.sendLimit = sendLimit
        self.joinDeadline = joinDeadline
        self.renderer = renderer
        self.framer = TCPLineFramer(maxLineBytes: maxLineBytes)
        self.idleFlush = idleFlush
        self.history = history
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.metrics.open.increment()
        self.connection = TCPConnection(
            channel: context.channel, renderer: self.renderer, metrics: self.metrics,
            log: ConnectionLogger(self.logger, proto: .tcp))
        let channel = context.channel
        self.joinTimer = context.eventLoop.scheduleTask(in: self.joinDeadline) {
            let line = TCPLine.error(.joinTimedOut)
            channel.writeAndFlush(ByteBuffer(string: line)).whenComplete { _ in channel.close(promise: nil) }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        self.pendingFlush?.cancel()
        self.pendingFlush = nil
        for frame in self.framer.append(Self.unwrapInboundIn(data)) {
            self.handle(frame)
        }
        if self.framer.hasPendingBytes {
            let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
            self.pendingFlush = context.eventLoop.scheduleTask(in: self.idleFlush) {
                loopBound.value.flushPendingLine()
            }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.metrics.open.decrement()
    }

    func channelInactive(context: ChannelHandlerContext) {
        // No more bytes can arrive: an unterminated command is complete, as it would be after the idle pause.
        self.pendingFlush?.cancel()
        self.joinTimer?.cancel()
        self.flushPendingLine()
        if let connection = self.connection, let name = self.name {
            self.lobby.leave(connection, announcing: name)
        }
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            let channel = context.channel
            channel.writeAndFlush(ByteBuffer(string: TCPLine.error(.serverRestarting))).whenComplete { _ in
                channel.close(promise: nil)
            }
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func flushPendingLine() {
        self.pendingFlush = nil
        if let frame = self.framer.flushPendingLine() {
            self.handle(frame)
        }
    }

    private func handle(_ frame: TCPLineFramer.Frame) {
        switch frame {
        case .overlong:
            self.reject(.lineTooLong(limit: self.framer.maxLineBytes))
        case .invalidUTF8:
            self.reject(.invalidUTF8)
        case .line(let line):
            switch TCPCommand.parse(line) {
            case .failure(let rejection):
                self.reject(rejection)
            case .success(.iam(let name)):
                self.join(as: name)
            case .success(.msg(let text)):
                self.say(text)
            }
        }
    }

    private func join(as name: String) {
        guard let connection = self.connection else { return }
        if let current = self.name {
            // A second iam: renames, announced as the old name leaving and the new one joining.
            self.lobby.announce(PresenceChange(.left, name: current))
            self.lobby.announce(PresenceChange(.joined, name: name))
        } else {
            self.lobby.join(connection, history: self.history, announcing: name)
            self.joinTimer?.cancel()
        }
        self.name = name
    }

    private func say(_ text: String) {
        guard let name = self.name, let connection = self.connection else {
            self.reject(.notJoined)
            return
        }
        if let seconds = self.sendLimit.attempt(
            connection: ObjectIdentifier(self), address: self.addresses.client(of: connection.channel.remoteAddress))
        {
            self.reject(.rateLimited(retryAfterSeconds: seconds))
            return
        }
        let draft = MessageDraft(
            sender: Sender(name: name, id: TutorialIdentity.userID(forName: name), via: .tcp), text: text)
        self.lobby.submit(draft) { result in
            guard case .failure = result else { return }
            connection.eventLoop.execute { connection.send("err:the message could not be stored; try again\n") }
        }
    }

    private func reject(_ rejection: TCPCommand.Rejection) {
        self.connection?.send(TCPLine.error(rejection))
    }
}
