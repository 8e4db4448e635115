import ChatCore
import ChatProtocol
import Logging
import NIOCore
import NIOExtras
import NIOPosix

/// The TCP text-protocol listener. Connections are accepted on the application's event loops; at shutdown the
/// quiescing helper stops accepting and tells every connection to close.
final class TCPListener: Sendable {
    private let channel: any Channel
    private let quiesce: ServerQuiescingHelper

    var port: Int? { self.channel.localAddress?.port }

    private init(channel: any Channel, quiesce: ServerQuiescingHelper) {
        self.channel = channel
        self.quiesce = quiesce
    }

    static func start(
        host: String, port: Int, group: any EventLoopGroup, lobby: Room, tutorialText: TutorialText,
        sendLimit: TutorialSendLimit, connections: ConnectionCounts, metrics: ConnectionMetrics, tls: TLSCertificates?,
        addresses: ClientAddresses, configuration: ServerConfiguration, logger: Logger
    ) async throws -> TCPListener {
        let quiesce = ServerQuiescingHelper(group: group)
        let renderer = TCPLineRenderer(tutorialText: tutorialText)
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 4096)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(quiesce.makeServerChannelHandler(channel: channel))
                    let refusal = TCPLine.error(.tooManyConnections)
                    try ConnectionGate.install(
                        on: channel,
                        ConnectionGate(
                            counts: connections, refusal: refusal, tls: tls,
                            proxy: configuration.proxyProtocol ? (addresses, logger) : nil))
                }
            }
            .childChannelOption(
                .writeBufferWaterMark,
                value: .init(low: configuration.outboundQueueBytes / 2, high: configuration.outboundQueueBytes)
            )
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        TCPChatHandler(
                            lobby: lobby, renderer: renderer, maxLineBytes: configuration.maxTCPLineBytes,
                            idleFlush: configuration.tcpIdleFlush, history: configuration.tcpHistoryOnJoin,
                            sendLimit: sendLimit, addresses: addresses,
                            joinDeadline: .seconds(Int64(configuration.idleTimeout)),
                            metrics: metrics,
                            logger: logger))
                }
            }
            .bind(host: host, port: port)
            .get()
        return TCPListener(channel: channel, quiesce: quiesce)
    }

    /// Stops accepting and closes every connection; returns when all are closed.
    func shutdown() async {
        let promise = self.channel.eventLoop.makePromise(of: Void.self)
        self.quiesce.initiateShutdown(promise: promise)
        try? await promise.futureResult.get()
    }
}
