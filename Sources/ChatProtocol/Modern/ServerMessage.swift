import Foundation

/// Every frame the server sends on `/api/v1/ws` (PROTOCOL.md §8, §9), decoded by its `type`: what `ChatClient` and
/// the demo bot read. Unknown types are kept as `.unknown` so a newer server never breaks an older client.
public enum ServerMessage: Sendable, Equatable {
    case hello(HelloFrame)
    case message(MessagePayload, clientMsgID: String?)
    case ack(AckFrame)
    case resumed(ResumedFrame)
    case history(HistoryFrame)
    case error(ErrorFrame)
    case receipt(ReceiptFrame)
    case typing(room: String, user: SenderPayload)
    case presence([PresenceEntry])
    case joined(RoomSummary)
    case left(room: String)
    case pong
    case unknown(type: String)

    /// The `type` of every server frame: the frame structs' `type` and the decoder's one switch both use it, so a
    /// frame is named once.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case hello, message, ack, resumed, history, error, receipt, typing, presence, joined, left, pong
    }

    /// The frame's type; `nil` for ``unknown(type:)``.
    public var kind: Kind? {
        switch self {
        case .hello: .hello
        case .message: .message
        case .ack: .ack
        case .resumed: .resumed
        case .history: .history
        case .error: .error
        case .receipt: .receipt
        case .typing: .typing
        case .presence: .presence
        case .joined: .joined
        case .left: .left
        case .pong: .pong
        case .unknown: nil
        }
    }

    /// Why a frame could not be decoded.
    public enum Malformed: Error, Equatable {
        /// Not a JSON object with a string `type`.
        case notAFrame
        /// A known type without the fields it needs.
        case missingFields(type: String)
    }

    private struct Envelope: Decodable {
        var type: String
    }

    /// Decodes one text frame.
    public static func decode(_ data: Data) throws(Malformed) -> ServerMessage {
        let decoder = JSONDecoder()
        guard let envelope = try? decoder.decode(Envelope.self, from: data) else { throw .notAFrame }
        guard let kind = Kind(rawValue: envelope.type) else { return .unknown(type: envelope.type) }
        do {
            switch kind {
            case .hello: return .hello(try decoder.decode(HelloFrame.self, from: data))
            case .message:
                let frame = try decoder.decode(MessageFrame.self, from: data)
                return .message(frame.event, clientMsgID: frame.clientMsgID)
            case .ack: return .ack(try decoder.decode(AckFrame.self, from: data))
            case .resumed: return .resumed(try decoder.decode(ResumedFrame.self, from: data))
            case .history: return .history(try decoder.decode(HistoryFrame.self, from: data))
            case .error: return .error(try decoder.decode(ErrorFrame.self, from: data))
            case .receipt: return .receipt(try decoder.decode(ReceiptFrame.self, from: data))
            case .typing:
                let typing = try decoder.decode(TypingFrame.self, from: data)
                return .typing(room: typing.room, user: typing.user)
            case .presence: return .presence(try decoder.decode(PresenceFrame.self, from: data).users)
            case .joined: return .joined(try decoder.decode(JoinedFrame.self, from: data).room)
            case .left: return .left(room: try decoder.decode(LeftFrame.self, from: data).room)
            case .pong: return .pong
            }
        } catch {
            throw .missingFields(type: envelope.type)
        }
    }
}
