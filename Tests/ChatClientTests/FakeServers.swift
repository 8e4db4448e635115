import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A tiny WebSocket server that accepts any upgrade and sends a fixed list of text frames, as a broken or
/// hostile server might: what the client makes of them is the test.
final class ScriptedWebSocketServer: Sendable {
    let channel: any Channel
    var port: Int { self.channel.localAddress?.port ?? 0 }

    init(frames: [String]) async throws {
        self.channel = try await bindWebSocketServer { _ in [ScriptedFrames(frames: frames)] }
    }

    func close() async {
        try? await self.channel.close()
    }
}

/// A WebSocket server on a free loopback port that accepts any upgrade and gives each connection the handlers
/// `handlers` makes for it.
private func bindWebSocketServer(_ handlers: @escaping @Sendable (any Channel) -> [any ChannelHandler]) async throws
    -> any Channel
{
    try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .childChannelInitializer { channel in
            let upgrader = NIOWebSocketServerUpgrader(
                shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
                upgradePipelineHandler: { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        for handler in handlers(channel) { try channel.pipeline.syncOperations.addHandler(handler) }
                    }
                })
            return channel.pipeline.configureHTTPServerPipeline(
                withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
        }
        .bind(host: "127.0.0.1", port: 0)
        .get()
}

private final class ScriptedFrames: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    let frames: [String]

    init(frames: [String]) {
        self.frames = frames
    }

    func handlerAdded(context: ChannelHandlerContext) {
        for text in self.frames {
            let frame = WebSocketFrame(fin: true, opcode: .text, data: context.channel.allocator.buffer(string: text))
            context.write(Self.wrapOutboundOut(frame), promise: nil)
        }
        context.flush()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Whatever the client says (resume, sends) is ignored.
    }
}

/// A TCP server that writes the given chunks to each client, flushing and waiting between them, then closes:
/// lines cut anywhere, as a slow network delivers them.
final class ChunkedLineServer: Sendable {
    let channel: any Channel
    var port: Int { self.channel.localAddress?.port ?? 0 }

    init(chunks: [String]) async throws {
        self.channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ChunkWriter(chunks: chunks))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
    }

    func close() async {
        try? await self.channel.close()
    }
}

private final class ChunkWriter: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let chunks: [String]

    init(chunks: [String]) {
        self.chunks = chunks
    }

    func channelActive(context: ChannelHandlerContext) {
        self.write(index: 0, context: context)
        context.fireChannelActive()
    }

    /// Each chunk is written only after the previous one has left, with a pause, so they travel separately.
    private func write(index: Int, context: ChannelHandlerContext) {
        guard index < self.chunks.count else {
            context.close(promise: nil)
            return
        }
        let loop = context.eventLoop
        let bound = NIOLoopBound((self, context), eventLoop: loop)
        context.writeAndFlush(Self.wrapOutboundOut(context.channel.allocator.buffer(string: self.chunks[index])))
            .whenComplete { _ in
                loop.scheduleTask(in: .milliseconds(20)) {
                    let (handler, context) = bound.value
                    handler.write(index: index + 1, context: context)
                }
            }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}

/// A modern-protocol server that loses the first connection's ack: it greets, takes the first `send`, and closes
/// without acknowledging it; on later connections it acknowledges every `send`. It records each `send`'s
/// `clientMsgID`, in the order they arrived.
final class AckLosingServer: Sendable {
    let channel: any Channel
    private let received = NIOLockedValueBox<[String]>([])
    private let connections = NIOLockedValueBox(0)
    var port: Int { self.channel.localAddress?.port ?? 0 }
    /// The `clientMsgID` of every `send` received so far.
    var sends: [String] { self.received.withLockedValue { $0 } }

    init(greeting: [String]) async throws {
        let received = self.received
        let connections = self.connections
        self.channel = try await bindWebSocketServer { _ in
            let index = connections.withLockedValue { count in
                defer { count += 1 }
                return count
            }
            // (the acknowledger first: the scripted frames' handler swallows what it reads)
            return [SendAcknowledger(losesAck: index == 0, received: received), ScriptedFrames(frames: greeting)]
        }
    }

    func close() async {
        try? await self.channel.close()
    }
}

private final class SendAcknowledger: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private struct Send: Decodable {
        let type: String
        let room: String?
        let clientMsgID: String?
    }

    let losesAck: Bool
    let received: NIOLockedValueBox<[String]>

    init(losesAck: Bool, received: NIOLockedValueBox<[String]>) {
        self.losesAck = losesAck
        self.received = received
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = Self.unwrapInboundIn(data)
        guard frame.opcode == .text,
            let send = try? JSONDecoder().decode(Send.self, from: Data(frame.unmaskedData.readableBytesView)),
            send.type == "send", let clientMsgID = send.clientMsgID
        else { return }
        self.received.withLockedValue { $0.append(clientMsgID) }
        if self.losesAck {
            context.close(promise: nil)
            return
        }
        let ack =
            ##"{"type":"ack","clientMsgID":"\##(clientMsgID)","room":"\##(send.room ?? "")","seq":1,"id":"362BEF0D-7A35-42A0-B56C-69C63EB9842E","date":1763784000123}"##
        context.writeAndFlush(
            Self.wrapOutboundOut(
                WebSocketFrame(fin: true, opcode: .text, data: context.channel.allocator.buffer(string: ack))),
            promise: nil)
    }
}
