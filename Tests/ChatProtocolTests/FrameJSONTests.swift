import ChatProtocol
import Foundation
import Testing

@Suite("Frames that write their own JSON read as JSONEncoder's")
struct FrameJSONTests {
    static let ann = SenderPayload(id: UUID(uuidString: "0A1B2C3D-4E5F-6789-ABCD-EF0123456789")!, name: "Ann \"A\" Lee")
    static let luke = SenderPayload(id: UUID(), name: "Luke", via: "tcp")

    /// Every optional field present, and text that needs escaping: quotes, a backslash, line breaks, a tab, a
    /// slash, accents, an emoji and a character outside the BMP.
    static let full = MessageFrame(
        MessagePayload(
            room: "3E0C5C1B-lobby\\", seq: 9_007_199_254_740_993, id: UUID(), sender: luke, kind: .known(.message),
            text: "say \"hi\"\\\nnext line\r\n\ttabbed / café 👋🏽 𝄞", date: -1, target: 7, emoji: "👍",
            added: false,
            replyTo: QuotePayload(seq: 3, sender: ann, text: "earlier \"quote\""),
            attachments: [
                AttachmentPayload(
                    id: UUID(), name: "cat \"1\".png", contentType: "image/png", size: 12_345, width: 640, height: 480),
                AttachmentPayload(id: UUID(), name: "notes.txt", contentType: "application/octet-stream", size: 0),
            ],
            editedAt: 1_795_454_334_709, deleted: true,
            reactions: [
                ReactionPayload(emoji: "❤️", users: [ann.id, luke.id]), ReactionPayload(emoji: "😂", users: []),
            ],
            member: ann, mentions: [ann.id, luke.id], mentionsAll: true),
        clientMsgID: "c-1 \"x\"")

    /// Only the fields every frame has.
    static let plain = MessageFrame(
        MessagePayload(
            room: "lobby", seq: 1, id: UUID(), sender: ann, text: "hello", date: 1_795_454_334_709,
            attachments: []),
        clientMsgID: nil)

    static func encoded(_ frame: MessageFrame) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(frame))
    }

    @Test("the same bytes as JSONEncoder with sorted keys", arguments: [full, plain])
    func sameBytes(frame: MessageFrame) throws {
        #expect(
            String(decoding: frame.json(), as: UTF8.self) == String(decoding: try Self.encoded(frame), as: UTF8.self))
    }

    @Test("every control character is escaped as JSONEncoder escapes it, and the frame decodes to what was written")
    func controlCharacters() throws {
        var frame = Self.plain
        frame.event.text = String((0..<32).map { Character(Unicode.Scalar($0)!) }) + "\u{7F}end"
        frame.event.sender.name = "\u{1B}[31mred"
        let json = frame.json()
        #expect(String(decoding: json, as: UTF8.self) == String(decoding: try Self.encoded(frame), as: UTF8.self))
        #expect(!json.contains { $0 < 0x20 })
        #expect(try JSONDecoder().decode(MessageFrame.self, from: Data(json)) == frame)
    }

    @Test("decodes to the frame it was written from", arguments: [full, plain])
    func roundTrip(frame: MessageFrame) throws {
        #expect(try JSONDecoder().decode(MessageFrame.self, from: Data(frame.json())) == frame)
    }

    @Test(
        "a presence frame: the same bytes as JSONEncoder's",
        arguments: [
            PresenceFrame(users: []),
            PresenceFrame(users: [
                PresenceEntry(id: UUID(), online: true, lastSeen: nil),
                PresenceEntry(id: UUID(), online: false, lastSeen: 1_795_454_334_709),
            ]),
        ])
    func presenceFrame(frame: PresenceFrame) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(frame.json() == Array(try encoder.encode(frame)))
    }
}
