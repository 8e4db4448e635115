import Foundation

/// The three fields of a `/chat` frame the server reads, each `nil` when absent or of another type; any other field
/// is ignored.
struct LobbyChatFields: Equatable {
    var message: String?
    var user: String?
    var userID: String?

    /// The fields of `text`, or `nil` when it is not a JSON object.
    ///
    /// Frames as the tutorial's client writes them (one flat object of strings) are read by ``FlatJSONObjectReader``;
    /// anything it does not read (nested values, a repeated key, a `\u` escape of a surrogate, JSON that is not
    /// valid) goes to `JSONDecoder`, which decides. `JSONDecoder` was 6 % of a `/chat` message's CPU
    /// (docs/BENCHMARKS.md, "The fixed cost of a message, taken apart"). `LobbyChatFieldsTests` compare the two
    /// readers on frames written by hand and at random.
    static func read(_ text: String) -> LobbyChatFields? {
        FlatJSONObjectReader.fields(of: text) ?? Self.decoded(text)
    }

    /// The fields as `JSONDecoder` reads them: `nil` when the text is not a JSON object.
    static func decoded(_ text: String) -> LobbyChatFields? {
        try? JSONDecoder().decode(LobbyChatFields.self, from: Data(text.utf8))
    }
}

extension LobbyChatFields: Decodable {
    private enum CodingKeys: String, CodingKey {
        case message, user, userID
    }

    /// Decoding fails only when the frame is not a JSON object: a field of another type is `nil`.
    /// (`JSONDecoder` with this shape costs a fraction of `JSONSerialization` on Linux.)
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.message = try? container.decodeIfPresent(String.self, forKey: .message)
        self.user = try? container.decodeIfPresent(String.self, forKey: .user)
        self.userID = try? container.decodeIfPresent(String.self, forKey: .userID)
    }
}
