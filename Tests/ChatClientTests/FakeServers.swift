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
        self.channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let upgrader = NIOWebSocketServerUpgrader(
                    shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
                    upgradePipelineHandler: { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(ScriptedFrames(frames: frames))
                        }
                    })
                return channel.pipeline.configureHTTPServerPipeline(
                    withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
    }

    func close() async {
        try? await self.channel.close()
    }
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
        context.writeAndFlush(Self.wrapOutboundOut(context.channel.allocator.buffer(string: self.chunks[index]))).whenComplete { _ in
            loop.scheduleTask(in: .milliseconds(20)) {
                let (handler, context) = bound.value
                handler.write(index: index + 1, context: context)
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
