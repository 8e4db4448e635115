import ChatProtocol
import Foundation

/// A frame from `/api/v1/ws`, decoded by its `type`. Unknown types are kept as `.unknown` so a newer server
/// never breaks an older client.
enum ServerFrame: Sendable {
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

    private struct Envelope: Decodable {
        var type: String
    }

    /// Decodes one text frame; throws ``ChatClientError/malformedFrame(_:reason:)`` for anything that is not a
    /// JSON object with a `type`, or a known type whose fields do not decode.
    static func decode(_ text: String) throws -> ServerFrame {
        let data = Data(text.utf8)
        let decoder = JSONDecoder()
        let envelope: Envelope
        do {
            envelope = try decoder.decode(Envelope.self, from: data)
        } catch {
            throw ChatClientError.malformedFrame(text, reason: "not a JSON object with a string \"type\"")
        }
        do {
            switch envelope.type {
            case "hello": return .hello(try decoder.decode(HelloFrame.self, from: data))
            case "message":
                let frame = try decoder.decode(MessageFrame.self, from: data)
                return .message(frame.event, clientMsgID: frame.clientMsgID)
            case "ack": return .ack(try decoder.decode(AckFrame.self, from: data))
            case "resumed": return .resumed(try decoder.decode(ResumedFrame.self, from: data))
            case "history": return .history(try decoder.decode(HistoryFrame.self, from: data))
            case "error": return .error(try decoder.decode(ErrorFrame.self, from: data))
            case "receipt": return .receipt(try decoder.decode(ReceiptFrame.self, from: data))
            case "typing":
                let typing = try decoder.decode(TypingFrame.self, from: data)
                return .typing(room: typing.room, user: typing.user)
            case "presence": return .presence(try decoder.decode(PresenceFrame.self, from: data).users)
            case "joined": return .joined(try decoder.decode(JoinedFrame.self, from: data).room)
            case "left": return .left(room: try decoder.decode(LeftFrame.self, from: data).room)
            case "pong": return .pong
            default: return .unknown(type: envelope.type)
            }
        } catch {
            throw ChatClientError.malformedFrame(text, reason: "a \"\(envelope.type)\" frame without the fields it needs")
        }
    }
}
