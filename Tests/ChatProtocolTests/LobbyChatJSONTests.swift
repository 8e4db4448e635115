import ChatProtocol
import Foundation
import Testing

@Suite("/chat messages write the bytes a default JSONEncoder writes (PROTOCOL.md §1)")
struct LobbyChatJSONTests {
    static func encoded(_ message: ReceivingChatMessage) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(message), as: UTF8.self)
    }

    @Test(
        "texts that need escaping: quotes, backslashes, slashes, line breaks, tabs, accents, emoji",
        arguments: [
            "hello", "", "say \"hi\"\\ then / and // http://x/y", "line\nnext\r\n\ttabbed", "café 👋🏽 𝄞 中文",
            "</script>", "{\"message\":\"nested\"}",
        ])
    func sameBytesForTexts(text: String) throws {
        let message = ReceivingChatMessage(
            date: Date(timeIntervalSinceReferenceDate: 786_000_000.123_456), id: UUID(), message: text,
            user: "Ann / \"A\"", userID: UUID())
        #expect(String(decoding: try #require(message.json()), as: UTF8.self) == (try Self.encoded(message)))
    }

    @Test("dates: whole seconds, fractions, before 2001, far ahead, now, and many at random")
    func sameBytesForDates() throws {
        var seconds: [Double] = [0, 1, -1, 700_000_000, 700_000_000.5, -978_307_200, 1e10 + 0.25, 0.1, 1e-7, 123.456]
        seconds.append(Date().timeIntervalSinceReferenceDate)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1_000 { seconds.append(Double.random(in: 0..<2e9, using: &generator)) }
        for value in seconds {
            let message = ReceivingChatMessage(
                date: Date(timeIntervalSinceReferenceDate: value), id: UUID(), message: "m", user: "u", userID: UUID())
            #expect(
                String(decoding: try #require(message.json()), as: UTF8.self) == (try Self.encoded(message)), "\(value)"
            )
        }
    }

    @Test("every control character is escaped as JSONEncoder escapes it, and the frame decodes to what was written")
    func controlCharacters() throws {
        let message = ReceivingChatMessage(
            date: Date(), id: UUID(), message: String((0..<32).map { Character(Unicode.Scalar($0)!) }) + "\u{7F}",
            user: "u", userID: UUID())
        let json = try #require(message.json())
        #expect(String(decoding: json, as: UTF8.self) == (try Self.encoded(message)))
        #expect(!json.contains { $0 < 0x20 })
        #expect(try JSONDecoder().decode(ReceivingChatMessage.self, from: Data(json)) == message)
    }

    @Test("a date that is not a finite number is not written, as JSONEncoder refuses it")
    func nonFiniteDates() {
        for seconds in [Double.nan, .infinity, -.infinity] {
            let message = ReceivingChatMessage(
                date: Date(timeIntervalSinceReferenceDate: seconds), id: UUID(), message: "m", user: "u", userID: UUID()
            )
            #expect(message.json() == nil)
        }
    }
}
