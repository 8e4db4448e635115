import ChatProtocol
import Foundation
import Testing

/// The wire's vocabulary, exported for the other clients' tests: `Tests/Fixtures/protocol/vocabulary.json` lists every
/// error code, frame type and kind this build has, and the web client's tests (`Tests/Web/test_vocabulary.py`) check
/// that every one the page names is among them. A change of the vocabulary fails here until the file is written
/// again: `UPDATE_FIXTURES=1 swift test --filter VocabularyFixtureTests`.
@Suite("The protocol's vocabulary fixture is this build's")
struct VocabularyFixtureTests {
    struct Vocabulary: Codable, Equatable {
        var errorCodes: [String]
        var serverFrames: [String]
        var clientFrames: [String]
        var eventKinds: [String]
        var roomKinds: [String]
    }

    static let current = Vocabulary(
        errorCodes: ErrorCode.allCases.map(\.rawValue).sorted(),
        serverFrames: ServerMessage.Kind.allCases.map(\.rawValue).sorted(),
        clientFrames: ClientMessage.Kind.allCases.map(\.rawValue).sorted(),
        eventKinds: EventKind.allCases.map(\.rawValue).sorted(),
        roomKinds: RoomKind.allCases.map(\.rawValue).sorted())

    static let file = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures/protocol/vocabulary.json")

    @Test("vocabulary.json lists every error code, frame type and kind, and nothing else")
    func fixtureIsCurrent() throws {
        if ProcessInfo.processInfo.environment["UPDATE_FIXTURES"] == "1" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try (encoder.encode(Self.current) + Data("\n".utf8)).write(to: Self.file)
        }
        let stored = try JSONDecoder().decode(Vocabulary.self, from: Data(contentsOf: Self.file))
        #expect(stored == Self.current, "UPDATE_FIXTURES=1 swift test --filter VocabularyFixtureTests writes it again")
    }
}
