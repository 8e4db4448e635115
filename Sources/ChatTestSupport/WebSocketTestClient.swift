import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// One WebSocket frame as the test client saw it.
public struct ReceivedFrame: Sendable, Equatable {
    public var opcode: UInt8
    public var payload: [UInt8]

    public var text: String { String(decoding: self.payload, as: UTF8.self) }

    /// For a close frame: the status code, if any.
    public var closeCode: UInt16? {
        guard self.opcode == WebSocketTestClient.Opcode.close, self.payload.count >= 2 else { return nil }
        return UInt16(self.payload[0]) << 8 | UInt16(self.payload[1])
    }
}

/// A WebSocket client written from RFC 6455 on a plain TCP socket, so tests can send anything: valid messages
/// as the tutorials' clients do, and the broken frames (invalid UTF-8, oversize, half a frame) a fuzzer would.
public final class WebSocketTestClient: Sendable {
    public enum Opcode {
        public static let continuation: UInt8 = 0x0
        public static let text: UInt8 = 0x1
        public static let binary: UInt8 = 0x2
        public static let close: UInt8 = 0x8
        public static let ping: UInt8 = 0x9
        public static let pong: UInt8 = 0xA
    }

    private let channel: any Channel
    /// Every frame received after the handshake.
    public let frames: Inbox<ReceivedFrame>

    private init(channel: any Channel, frames: Inbox<ReceivedFrame>) {
        self.channel = channel
        self.frames = frames
    }

    /// Opens a TCP connection and completes the handshake for `path` (e.g. `/chat` or `/echo/?id=a`).
    /// Throws with the HTTP status line when the server refuses the upgrade.
    /// Over TLS (`wss:`) when given a client context.
    public static func connect(host: String, port: Int, path: String, tls: NIOSSLContext? = nil) async throws
        -> WebSocketTestClient
    {
        let frames = Inbox<ReceivedFrame>()
        let handshake = Inbox<String>()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: tls, serverHostname: host.first?.isNumber == true ? nil : host)
                        )
                    }
                    try channel.pipeline.syncOperations.addHandler(FrameCollector(handshake: handshake, frames: frames))
                }
            }
            .connect(host: host, port: port)
            .get()
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let request =
            "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
        try await channel.writeAndFlush(ByteBuffer(string: request))
        // Generous: on a machine loaded by the whole suite a handshake can take seconds, and its speed is not what
        // any test checks (a refused handshake answers at once, whatever this waits).
        guard let head = await handshake.next(timeout: .seconds(15)) else {
            try? await channel.close()
            throw TestClientError("no handshake response for \(path)")
        }
        guard head.hasPrefix("HTTP/1.1 101") else {
            try? await channel.close()
            throw TestClientError(head.components(separatedBy: "\r\n").first ?? head)
        }
        let client = WebSocketTestClient(channel: channel, frames: frames)
        try await client.synchronize()
        return client
    }

    /// A ping/pong round trip. The server's session joins its room before it handles any frame, so once the
    /// pong is back every message submitted later is certain to reach this client. The pong is removed from
    /// ``frames``; anything that arrived around it (history) stays, in order.
    private func synchronize() async throws {
        let token = Array("sync-\(UInt32.random(in: 0...UInt32.max))".utf8)
        try await self.send(opcode: Opcode.ping, payload: token)
        guard await self.frames.take(where: { $0.opcode == Opcode.pong && $0.payload == token }) != nil else {
            throw TestClientError("no pong after the handshake")
        }
    }

    /// Sends a text message as one masked frame.
    public func send(text: String) async throws {
        try await self.send(frame: Self.frame(opcode: Opcode.text, payload: Array(text.utf8)))
    }

    /// Sends one masked frame with the given opcode and payload bytes (which need not be valid).
    public func send(opcode: UInt8, payload: [UInt8], fin: Bool = true) async throws {
        try await self.send(frame: Self.frame(opcode: opcode, payload: payload, fin: fin))
    }

    /// Writes raw bytes: half a frame, several frames at once, anything.
    public func send(frame bytes: [UInt8]) async throws {
        try await self.channel.writeAndFlush(ByteBuffer(bytes: bytes))
    }

    /// The next data frame's text, skipping pings; throws if none comes in time or the connection closes.
    public func nextText(timeout: Duration = TestDeadline.reply) async throws -> String {
        while let frame = await self.frames.next(timeout: timeout) {
            switch frame.opcode {
            case Opcode.text: return frame.text
            case Opcode.close:
                throw TestClientError("connection closed with \(frame.closeCode.map(String.init) ?? "no code")")
            default: continue
            }
        }
        throw TestClientError("no text frame within \(timeout)")
    }

    /// Decodes the next text frame as JSON of type `T`.
    public func nextJSON<T: Decodable>(_ type: T.Type, timeout: Duration = TestDeadline.reply) async throws -> T {
        let text = try await self.nextText(timeout: timeout)
        do {
            return try JSONDecoder().decode(T.self, from: Data(text.utf8))
        } catch {
            throw TestClientError("could not decode \(T.self) from \(text): \(error)")
        }
    }

    /// Waits for the server's close frame and returns its code (skipping data frames).
    public func nextCloseCode(timeout: Duration = TestDeadline.reply) async throws -> UInt16? {
        while let frame = await self.frames.next(timeout: timeout) {
            if frame.opcode == Opcode.close { return frame.closeCode }
        }
        throw TestClientError("no close frame within \(timeout)")
    }

    /// Sends a close frame with `code`.
    public func sendClose(code: UInt16 = 1000) async throws {
        try await self.send(opcode: Opcode.close, payload: [UInt8(code >> 8), UInt8(code & 0xFF)])
    }

    public func close() async {
        try? await self.channel.close()
    }

    /// Drops the TCP connection with a reset, as a crashed client would.
    public func reset() async {
        try? await (self.channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
        try? await self.channel.close()
    }

    /// Whether the TCP connection has closed.
    public var isClosed: Bool { self.frames.isFinished }

    /// A masked client frame.
    public static func frame(opcode: UInt8, payload: [UInt8], fin: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        switch payload.count {
        case ..<126:
            bytes.append(0x80 | UInt8(payload.count))
        case ..<65536:
            bytes.append(0x80 | 126)
            bytes += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            bytes.append(0x80 | 127)
            bytes += (0..<8).reversed().map { UInt8((UInt64(payload.count) >> (UInt64($0) * 8)) & 0xFF) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        bytes += mask
        bytes += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return bytes
    }
}

/// Reads the HTTP response head, then server frames.
private final class FrameCollector: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let handshake: Inbox<String>
    private let frames: Inbox<ReceivedFrame>
    private var buffer: [UInt8] = []
    private var upgraded = false

    init(handshake: Inbox<String>, frames: Inbox<ReceivedFrame>) {
        self.handshake = handshake
        self.frames = frames
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        self.buffer += Self.unwrapInboundIn(data).readableBytesView
        if !self.upgraded {
            guard let end = self.headEnd() else { return }
            let head = String(decoding: self.buffer[..<end], as: UTF8.self)
            self.buffer.removeSubrange(..<(end + 4))
            self.upgraded = true
            self.handshake.push(head)
        }
        while let frame = self.parseFrame() {
            self.frames.push(frame)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !self.upgraded { self.handshake.push(String(decoding: self.buffer, as: UTF8.self)) }
        self.frames.finish()
    }

    private func headEnd() -> Int? {
        let marker: [UInt8] = [13, 10, 13, 10]
        guard self.buffer.count >= 4 else { return nil }
        return (0...(self.buffer.count - 4)).first { Array(self.buffer[$0..<$0 + 4]) == marker }
    }

    private func parseFrame() -> ReceivedFrame? {
        guard self.buffer.count >= 2 else { return nil }
        let opcode = self.buffer[0] & 0x0F
        var length = Int(self.buffer[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard self.buffer.count >= 4 else { return nil }
            length = Int(self.buffer[2]) << 8 | Int(self.buffer[3])
            offset = 4
        } else if length == 127 {
            guard self.buffer.count >= 10 else { return nil }
            length = self.buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        guard self.buffer.count >= offset + length else { return nil }
        let payload = Array(self.buffer[offset..<offset + length])
        self.buffer.removeSubrange(..<(offset + length))
        return ReceivedFrame(opcode: opcode, payload: payload)
    }
}
