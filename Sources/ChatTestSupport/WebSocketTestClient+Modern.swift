import ChatProtocol
import Foundation

/// The modern protocol over ``WebSocketTestClient``, in its own vocabulary: well-formed frames are sent as
/// `ClientMessage` and waited for by `ServerMessage.Kind`. Tests of the raw wire send ``ClientFrame``s or text.
extension WebSocketTestClient {
    /// Sends a well-formed frame.
    public func send(_ message: ClientMessage) async throws {
        try await self.send(text: String(decoding: try JSONEncoder().encode(message), as: UTF8.self))
    }

    /// Sends a frame as a test writes it, well-formed or not (a field missing, a `type` no frame has).
    public func send(frame: ClientFrame) async throws {
        try await self.send(text: String(decoding: try JSONEncoder().encode(frame), as: UTF8.self))
    }

    /// The next frame of `kind`, skipping frames of other kinds.
    public func next(_ kind: ServerMessage.Kind, timeout: Duration = TestDeadline.reply) async throws -> ServerMessage {
        while true {
            let text = try await self.nextText(timeout: timeout)
            if let message = try? ServerMessage.decode(Data(text.utf8)), message.kind == kind { return message }
        }
    }

    /// The next frame of `kind` decoded as its frame struct, skipping frames of other kinds.
    public func next<Frame: Decodable>(
        _ kind: ServerMessage.Kind, as _: Frame.Type, timeout: Duration = TestDeadline.reply
    ) async throws -> Frame {
        while true {
            let text = try await self.nextText(timeout: timeout)
            if Self.kind(of: text) == kind { return try JSONDecoder().decode(Frame.self, from: Data(text.utf8)) }
        }
    }

    /// Every frame up to and including the first of `kind`, undecoded: to check what did (not) arrive before it.
    public func frames(through kind: ServerMessage.Kind, timeout: Duration = .seconds(10)) async throws -> [String] {
        var frames: [String] = []
        while true {
            let text = try await self.nextText(timeout: timeout)
            frames.append(text)
            if Self.kind(of: text) == kind { return frames }
        }
    }

    /// Sends `message` and returns its ack; an error frame for it is thrown, with its code.
    public func acked(_ message: ClientMessage, timeout: Duration = TestDeadline.reply) async throws -> AckFrame {
        try await self.send(message)
        while true {
            switch try? ServerMessage.decode(Data(try await self.nextText(timeout: timeout).utf8)) {
            case .ack(let ack) where ack.clientMsgID == message.clientMsgID: return ack
            case .error(let error): throw TestClientError("error \(error.code): \(error.message)")
            default: continue
            }
        }
    }

    /// Sends `message` and returns the code of the error frame it gets.
    public func errorCode(for message: ClientMessage) async throws -> ErrorCode {
        try await self.send(message)
        return try await self.next(.error, as: ErrorFrame.self).code
    }

    /// Sends a frame a correct client would not, and returns the code of the error frame it gets.
    public func errorCode(for frame: ClientFrame) async throws -> ErrorCode {
        try await self.send(frame: frame)
        return try await self.next(.error, as: ErrorFrame.self).code
    }

    /// The `type` of a frame's text, when it is one the protocol has.
    static func kind(of text: String) -> ServerMessage.Kind? {
        struct Envelope: Decodable { let type: String }
        return (try? JSONDecoder().decode(Envelope.self, from: Data(text.utf8))).flatMap {
            ServerMessage.Kind(rawValue: $0.type)
        }
    }
}

/// The frames of one kind among `frames` (``WebSocketTestClient/frames(through:timeout:)``), decoded.
public func frames<Frame: Decodable>(_ frames: [String], ofType kind: ServerMessage.Kind, as _: Frame.Type) -> [Frame] {
    frames.compactMap { text in
        guard WebSocketTestClient.kind(of: text) == kind else { return nil }
        return try? JSONDecoder().decode(Frame.self, from: Data(text.utf8))
    }
}

extension TestServer {
    /// A modern connection that has received its hello and resumed every room (`after` per room, else live).
    public func modernClient(
        _ session: AuthSession, resume rooms: [String: Int64]? = [:]
    ) async throws -> WebSocketTestClient {
        let client = try await WebSocketTestClient.connect(
            host: self.host, port: self.httpPort, path: "/api/v1/ws?token=\(session.token)")
        _ = try await client.next(.hello, as: HelloFrame.self)
        if let rooms { try await client.send(.resume(ResumeRequest(rooms: rooms))) }
        return client
    }
}
