import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A push service on loopback for the Web Push tests, and the web server of the outbound guard's, the bots' and the
/// link previews': a real HTTP server that
/// keeps every request it receives and answers each with the next scripted answer (201 when none is left), a
/// redirect, or nothing at all (`hang`). It counts the connections it accepts.
public final class PushReceiver: Sendable {
    /// A request as it arrived.
    public struct Request: Sendable {
        public let path: String
        public let headers: HTTPHeaders
        public let body: Data
    }

    /// How to answer one request.
    public enum Answer: Sendable {
        case status(Int, retryAfter: Int? = nil)
        /// `302 Found` to `location`.
        case redirect(String)
        /// `200 OK` with `body` of `contentType`.
        case text(String, contentType: String = "text/plain; charset=utf-8")
        /// `200 OK` with these bytes of `contentType`.
        case bytes([UInt8], contentType: String)
        case hang
    }

    /// Every request received, in order.
    public let requests: Inbox<Request>
    public let port: Int
    /// Connections accepted so far.
    public var connections: Int { self.accepted.withLockedValue { $0 } }
    private let accepted: NIOLockedValueBox<Int>
    private let answers: NIOLockedValueBox<[Answer]>
    private let channel: any Channel

    /// `http://127.0.0.1:PORT/push/NAME`: an endpoint of this receiver.
    public func endpoint(_ name: String) -> String { "http://127.0.0.1:\(self.port)/push/\(name)" }

    /// Answers the next requests so, in order.
    public func script(_ answers: [Answer]) {
        self.answers.withLockedValue { $0.append(contentsOf: answers) }
    }

    /// Listens on `host` (a loopback address), on a port the system picks.
    public static func start(host: String = "127.0.0.1") async throws -> PushReceiver {
        let requests = Inbox<Request>()
        let answers = NIOLockedValueBox<[Answer]>([])
        let accepted = NIOLockedValueBox(0)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                accepted.withLockedValue { $0 += 1 }
                return channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(Handler(requests: requests, answers: answers))
                }
            }
            .bind(host: host, port: 0).get()
        return PushReceiver(channel: channel, requests: requests, answers: answers, accepted: accepted)
    }

    private init(
        channel: any Channel, requests: Inbox<Request>, answers: NIOLockedValueBox<[Answer]>,
        accepted: NIOLockedValueBox<Int>
    ) {
        self.channel = channel
        self.port = channel.localAddress?.port ?? 0
        self.answers = answers
        self.requests = requests
        self.accepted = accepted
    }

    public func stop() async {
        try? await self.channel.close()
    }

    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let requests: Inbox<Request>
        let answers: NIOLockedValueBox<[Answer]>
        private var head: HTTPRequestHead?
        private var body = Data()

        init(requests: Inbox<Request>, answers: NIOLockedValueBox<[Answer]>) {
            self.requests = requests
            self.answers = answers
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch self.unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                self.body = Data()
            case .body(var buffer):
                self.body.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
            case .end:
                guard let head = self.head else { return }
                self.requests.push(Request(path: head.uri, headers: head.headers, body: self.body))
                let answer = self.answers.withLockedValue { $0.isEmpty ? Answer.status(201) : $0.removeFirst() }
                var headers = HTTPHeaders([("Content-Length", "0")])
                var body: ByteBuffer?
                let code: Int
                switch answer {
                case .hang:
                    return
                case .status(let status, let retryAfter):
                    code = status
                    if let retryAfter { headers.add(name: "Retry-After", value: "\(retryAfter)") }
                case .redirect(let location):
                    code = 302
                    headers.add(name: "Location", value: location)
                case .text(let text, let contentType):
                    code = 200
                    body = ByteBuffer(string: text)
                    headers = HTTPHeaders([("Content-Length", "\(text.utf8.count)"), ("Content-Type", contentType)])
                case .bytes(let bytes, let contentType):
                    code = 200
                    body = ByteBuffer(bytes: bytes)
                    headers = HTTPHeaders([("Content-Length", "\(bytes.count)"), ("Content-Type", contentType)])
                }
                context.write(
                    self.wrapOutboundOut(
                        .head(
                            HTTPResponseHead(version: head.version, status: .init(statusCode: code), headers: headers))),
                    promise: nil)
                if let body { context.write(self.wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
                context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}
