import Foundation

/// What a client frame that failed to decode still tells: its `ref` and `clientMsgID` where they are strings, so
/// the `bad_frame` error can name the frame it answers (PROTOCOL.md §8.4).
public struct FrameEnvelope: Decodable, Sendable {
    public let ref: String?
    public let clientMsgID: String?

    private enum CodingKeys: String, CodingKey {
        case ref, clientMsgID
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.ref = try? container.decodeIfPresent(String.self, forKey: .ref)
        self.clientMsgID = try? container.decodeIfPresent(String.self, forKey: .clientMsgID)
    }

    /// The `clientMsgID` or `ref` of a frame, whatever else is wrong with it; `nil` when it is not a JSON object.
    public static func reference(in data: Data) -> String? {
        guard let envelope = try? JSONDecoder().decode(FrameEnvelope.self, from: data) else { return nil }
        return envelope.clientMsgID ?? envelope.ref
    }

    /// A reason a person can act on: which field has the wrong type, or that the frame is not a JSON object.
    public static func reason(for error: any Error) -> String {
        guard let error = error as? DecodingError else { return "A frame is a JSON object with a \"type\"." }
        switch error {
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            return field.isEmpty
                ? "A frame is a JSON object with a \"type\"." : "Field \"\(field)\" must be \(Self.name(of: type))."
        case .keyNotFound(let key, _):
            return "Field \"\(key.stringValue)\" is missing."
        case .dataCorrupted(let context):
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            return field.isEmpty
                ? "A frame is a JSON object with a \"type\"." : "Field \"\(field)\" has a value that is not allowed."
        @unknown default:
            return "A frame is a JSON object with a \"type\"."
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "a whole number"
        case is Bool.Type: "true or false"
        default: "of another type (\(type))"
        }
    }
}
