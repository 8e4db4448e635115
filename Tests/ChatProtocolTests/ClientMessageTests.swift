import ChatProtocol
import Foundation
import Testing

/// The typed client frames of `/api/v1/ws` (PROTOCOL.md §8, §9): strict decoding, and the wire form they encode to.
@Suite("ClientMessage: one case per frame type, exactly its fields")
struct ClientMessageTests {
    @Test("every case encodes with its type and decodes back to itself")
    func roundTrip() throws {
        let messages: [ClientMessage] = [
            .resume(ResumeRequest(rooms: ["lobby": 4], ref: "r")),
            .send(SendRequest(room: "lobby", clientMsgID: "c1", text: "hi", replyTo: 3, attachments: ["A"])),
            .edit(EditRequest(room: "lobby", clientMsgID: "c2", target: 5, text: "hello")),
            .delete(DeleteRequest(room: "lobby", clientMsgID: "c3", target: 5)),
            .react(ReactRequest(room: "lobby", clientMsgID: "c4", target: 5, emoji: "👍")),
            .history(HistoryRequest(room: "lobby", before: 9, limit: 20, ref: "h")),
            .read(ReadRequest(room: "lobby", seq: 8)),
            .typing(TypingRequest(room: "lobby")),
            .ping,
        ]
        #expect(Set(messages.map(\.kind)) == Set(ClientMessage.Kind.allCases))
        for message in messages {
            let data = try JSONEncoder().encode(message)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(object["type"] as? String == message.kind.rawValue)
            #expect(try JSONDecoder().decode(ClientMessage.self, from: data) == message)
        }
    }

    @Test("a missing field, a field of the wrong type and an unknown type are errors that name what is wrong")
    func strictDecoding() {
        func failure(_ json: String) -> String {
            do {
                _ = try JSONDecoder().decode(ClientMessage.self, from: Data(json.utf8))
                return "decoded"
            } catch let unknown as ClientMessage.UnknownType {
                return "unknown \(unknown.type)"
            } catch {
                return FrameEnvelope.reason(for: error)
            }
        }
        #expect(
            failure(#"{"type":"edit","room":"lobby","clientMsgID":"c","text":"x"}"#) == #"Field "target" is missing."#)
        #expect(
            failure(#"{"type":"send","room":"lobby","clientMsgID":7,"text":"x"}"#)
                == #"Field "clientMsgID" must be a string."#)
        #expect(failure(#"{"type":"read","room":"lobby","seq":"3"}"#) == #"Field "seq" must be a whole number."#)
        #expect(failure(#"{"type":"dance"}"#) == "unknown dance")
        #expect(failure(#"{"room":"lobby"}"#) == #"Field "type" is missing."#)
        // A field another type takes is ignored, as JSON objects allow.
        #expect(failure(#"{"type":"typing","room":"lobby","emoji":"👍"}"#) == "decoded")
    }
}
