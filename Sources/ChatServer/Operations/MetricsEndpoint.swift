import NIOCore
import NIOHTTP1
import NIOPosix

/// `GET /metrics` in the Prometheus text format, on a listener of its own (`--metrics-host`, `--metrics-port`),
/// so that the numbers are never on the public port and a scraper needs no account. Anything else answers 404.
final class MetricsEndpoint: Sendable {
    private let channel: any Channel

    /// The port actually bound (useful with port 0).
    var port: Int? { self.channel.localAddress?.port }

    private init(channel: any Channel) {
        self.channel = channel
    }

    static func start(host: String, port: Int, group: any EventLoopGroup, metrics: ServerMetrics) async throws
        -> MetricsEndpoint
    {
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(MetricsRequestHandler(metrics: metrics))
                }
            }
            .bind(host: host, port: port)
            .get()
        return MetricsEndpoint(channel: channel)
    }

    func close() async {
        try? await self.channel.close()
    }
}

/// Answers each request on one metrics connection.
private final class MetricsRequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let metrics: ServerMetrics
    private var head: HTTPRequestHead?

    init(metrics: ServerMetrics) {
        self.metrics = metrics
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head = self.head else { return }
            self.head = nil
            let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
            if head.method == .GET && path == "/metrics" {
                self.respond(context, head, .ok, "text/plain; version=0.0.4; charset=utf-8", self.metrics.exposition())
            } else {
                self.respond(
                    context, head, .notFound, "text/plain; charset=utf-8", Array("Metrics are at GET /metrics.\n".utf8))
            }
        }
    }

    private func respond(
        _ context: ChannelHandlerContext, _ request: HTTPRequestHead, _ status: HTTPResponseStatus, _ type: String,
        _ body: [UInt8]
    ) {
        var headers = HTTPHeaders([("Content-Type", type), ("Content-Length", String(body.count))])
        if !request.isKeepAlive { headers.add(name: "Connection", value: "close") }
        context.write(
            self.wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))),
            promise: nil)
        context.write(
            self.wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        let keepAlive = request.isKeepAlive
        let channel = context.channel
        context.writeAndFlush(self.wrapOutboundOut(.end(nil))).whenComplete { _ in
            if !keepAlive { channel.close(promise: nil) }
        }
    }
}
