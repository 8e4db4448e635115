import ChatProtocol
import Foundation
import Testing

@Suite("/chat frames (PROTOCOL.md §1)")
struct LobbyChatDecoderTests {
    let decoder = LobbyChatDecoder(maxMessageBytes: 16)

    @Test func decodesTheTutorialsFinalStage() {
        let id = UUID()
        let frame = #"{"message":"hi","user":"Ann","userID":"\#(id.uuidString)"}"#
        #expect(self.decoder.decode(frame) == .success(SubmittedChatMessage(message: "hi", user: "Ann", userID: id)))
    }

    @Test func acceptsTheFirstStageAsAGuest() {
        #expect(self.decoder.decode(#"{"message":"hi"}"#) == .success(SubmittedChatMessage(message: "hi")))
    }

    @Test("ignores fields a client may not set, and mistyped optional ones")
    func ignoresOtherFields() {
        let frame = #"{"message":"hi","id":"x","date":5,"user":7,"userID":"not-a-uuid"}"#
        #expect(self.decoder.decode(frame) == .success(SubmittedChatMessage(message: "hi")))
    }

    @Test(arguments: ["hello", "[1,2]", "\"text\"", "{", ""])
    func rejectsNonObjects(frame: String) {
        #expect(self.decoder.decode(frame) == .failure(.notJSON))
    }

    @Test(arguments: [#"{"user":"a"}"#, #"{"message":5}"#, #"{"message":null}"#])
    func rejectsAMissingMessage(frame: String) {
        #expect(self.decoder.decode(frame) == .failure(.missingMessage))
    }

    @Test(arguments: [#"{"message":""}"#, #"{"message":"  \n\t "}"#])
    func rejectsEmptyMessages(frame: String) {
        #expect(self.decoder.decode(frame) == .failure(.emptyMessage))
    }

    @Test func measuresTheLimitInUTF8Bytes() {
        #expect(
            self.decoder.decode(#"{"message":"0123456789abcdef"}"#)
                == .success(SubmittedChatMessage(message: "0123456789abcdef")))
        #expect(self.decoder.decode(#"{"message":"ééééééééé"}"#) == .failure(.messageTooLong(limit: 16)))
    }

    @Test(
        "names follow the TCP protocol's rule, since they end up in its lines",
        arguments: [String(repeating: "n", count: 65), "evil\nsystem", "a:b", "tab\there"])
    func rejectsNamesThatWouldBreakTCPLines(name: String) throws {
        let frame = String(decoding: try JSONEncoder().encode(["message": "hi", "user": name]), as: UTF8.self)
        #expect(self.decoder.decode(frame) == .failure(.invalidUser))
    }

    @Test func trimsNamesAndTreatsBlankOnesAsGuests() {
        #expect(
            self.decoder.decode(#"{"message":"hi","user":"  Ann "}"#)
                == .success(SubmittedChatMessage(message: "hi", user: "Ann")))
        #expect(self.decoder.decode(#"{"message":"hi","user":"  "}"#) == .success(SubmittedChatMessage(message: "hi")))
    }

    /// The tutorial's client decodes with a default `JSONDecoder` into exactly this shape.
    struct TutorialReceivingChatMessage: Decodable {
        let date: Date
        let id: UUID
        let message: String
        let user: String
        let userID: UUID
    }

    @Test("what the server sends decodes with a default JSONDecoder into the tutorial's struct")
    func encodesForTheTutorialsDecoder() throws {
        let sent = ReceivingChatMessage(
            date: Date(timeIntervalSinceReferenceDate: 700_000_000.5), id: UUID(), message: "hi", user: "Ann",
            userID: UUID())
        let data = try JSONEncoder().encode(sent)
        let json = String(decoding: data, as: UTF8.self)
        #expect(json.contains(#""date":700000000.5"#))
        #expect(json.contains(sent.id.uuidString))  // uppercase
        let decoded = try JSONDecoder().decode(TutorialReceivingChatMessage.self, from: data)
        #expect(decoded.date == sent.date && decoded.id == sent.id && decoded.userID == sent.userID)
    }
}
