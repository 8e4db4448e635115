import ChatProtocol
import Foundation

/// One case of `Tests/Fixtures/folding/`: a room's events, the ways a client may receive them, and the messages
/// every client (the Swift `Timeline`, the web client's `store.js`) and every store must end up with. The same
/// files drive the Swift tests and the browser tests, so the foldings cannot drift apart (PROTOCOL.md §9.1).
public struct FoldingVector: Decodable, Sendable, CustomStringConvertible {
    /// The file's name, for failure messages.
    public var file = ""
    public let events: [MessagePayload]
    public let deliveries: [Delivery]
    public let expected: [ExpectedMessage]

    public var description: String { self.file }

    private enum CodingKeys: String, CodingKey {
        case events, deliveries, expected
    }

    /// One way of receiving the events: live frames and pages of history, in order.
    public struct Delivery: Decodable, Sendable {
        public let name: String
        public let steps: [Step]
    }

    /// Frames of the live stream (or a resume's replay), or one page of history exactly as the server returns it.
    public enum Step: Decodable, Sendable {
        case live([MessagePayload])
        case page([MessagePayload])

        private enum CodingKeys: String, CodingKey {
            case live, page
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let events = try container.decodeIfPresent([MessagePayload].self, forKey: .live) {
                self = .live(events)
            } else {
                self = .page(try container.decode([MessagePayload].self, forKey: .page))
            }
        }
    }

    /// What a client shows of one message.
    public struct ExpectedMessage: Decodable, Sendable, Equatable, CustomStringConvertible {
        public let seq: Int64
        public let text: String
        public let editedAt: Int64?
        public let deleted: Bool
        public let reactions: [ReactionPayload]
        /// Absent in a vector: not pinned.
        public let pinned: Bool

        public init(
            seq: Int64, text: String, editedAt: Int64?, deleted: Bool, reactions: [ReactionPayload],
            pinned: Bool = false
        ) {
            self.seq = seq
            self.text = text
            self.editedAt = editedAt
            self.deleted = deleted
            self.reactions = reactions
            self.pinned = pinned
        }

        /// A message as shown, with absent fields read as the protocol means them.
        public init(_ message: MessagePayload) {
            self.init(
                seq: message.seq, text: message.text, editedAt: message.editedAt, deleted: message.deleted ?? false,
                reactions: message.reactions ?? [], pinned: message.pinned ?? false)
        }

        private enum CodingKeys: String, CodingKey {
            case seq, text, editedAt, deleted, reactions, pinned
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                seq: try container.decode(Int64.self, forKey: .seq),
                text: try container.decode(String.self, forKey: .text),
                editedAt: try container.decodeIfPresent(Int64.self, forKey: .editedAt),
                deleted: try container.decode(Bool.self, forKey: .deleted),
                reactions: try container.decode([ReactionPayload].self, forKey: .reactions),
                pinned: try container.decodeIfPresent(Bool.self, forKey: .pinned) ?? false)
        }

        public var description: String {
            let reactions = self.reactions.map { "\($0.emoji)\($0.users.map { $0.uuidString.prefix(1) }.joined())" }
            return
                "#\(self.seq) \"\(self.text)\" editedAt \(self.editedAt.map(String.init) ?? "nil") deleted \(self.deleted) \(reactions) pinned \(self.pinned)"
        }
    }

    /// Every vector under `Tests/Fixtures/folding/`, sorted by file name.
    public static func all() throws -> [FoldingVector] {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/folding")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
            .sorted()
        return try files.map { file in
            var vector = try JSONDecoder().decode(
                FoldingVector.self, from: Data(contentsOf: directory.appendingPathComponent(file)))
            vector.file = file
            return vector
        }
    }
}
