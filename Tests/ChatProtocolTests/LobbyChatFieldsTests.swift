import Foundation
import Testing

@testable import ChatProtocol

@Suite("/chat frames: the flat reader agrees with JSONDecoder wherever it answers")
struct LobbyChatFieldsTests {
    /// Frames the flat reader reads itself: the tutorial's, with spacing, escapes and values of other types.
    static let flatFrames = [
        #"{"message":"hi","user":"Ann","userID":"0A1B2C3D-4E5F-6789-ABCD-EF0123456789"}"#,
        #"{"message":"hi"}"#,
        "{}",
        " \n\t{ \"message\" : \"spaced\" ,\r\n \"user\" :\"Bo\" } \n",
        #"{"message":"say \"hi\" \\ \/ \b\f\n\r\t \u00e9\u4E2D\u0000 end","user":null,"userID":5}"#,
        #"{"mess\u0061ge":"an escaped key","date":-12.5e+3,"id":0,"ok":true,"no":false,"x":1E-7}"#,
        #"{"message":"café 👋🏽 𝄞","other":"\""}"#,
        #"{"message":7,"user":"a"}"#,
    ]

    /// Frames the flat reader leaves to `JSONDecoder`: nested values, repeats, surrogate escapes, invalid JSON.
    static let otherFrames = [
        #"{"message":"hi","extra":{"a":1}}"#, #"{"message":"hi","list":[1,2]}"#,
        #"{"message":"a","message":"b"}"#, #"{"message":"\ud83d\ude00"}"#, #"{"message":"\ud800"}"#,
        "", "hello", "[1,2]", "\"text\"", "{", "}", #"{"message":"hi",}"#, #"{"message":"hi"} x"#,
        #"{"message":"hi""user":"a"}"#, #"{"message":01}"#, #"{"message":1.}"#, #"{"message":-}"#,
        #"{"message":.5}"#, #"{"message":1e}"#, #"{"message":tru}"#, #"{"message":nul}"#, #"{"message":"a"#,
        "{\"message\":\"raw\ttab\"}", #"{"message":"\x"}"#, #"{"message":"\u12G4"}"#, #"{message:"hi"}"#,
        #"{'message':'hi'}"#, "\u{FEFF}{\"message\":\"bom\"}", #"{"message":+1}"#, #"{"message":NaN}"#,
        #"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"message":"nine keys"}"#,
    ]

    @Test("the tutorial's frames are read without JSONDecoder, to the same fields", arguments: flatFrames)
    func flatFramesReadTheSame(frame: String) throws {
        let flat = try #require(FlatJSONObjectReader.fields(of: frame))
        #expect(flat == LobbyChatFields.decoded(frame))
    }

    @Test("anything else is left to JSONDecoder", arguments: otherFrames)
    func otherFramesAreLeftToJSONDecoder(frame: String) {
        #expect(FlatJSONObjectReader.fields(of: frame) == nil)
        #expect(LobbyChatFields.read(frame) == LobbyChatFields.decoded(frame))
    }

    @Test("on 20,000 frames mutated at random, wherever the flat reader answers, JSONDecoder answers the same")
    func randomFramesAgree() {
        let alphabet = Array(#"{}[]":,\ "abcmessageuserID01-+.eE/ntrufl"#) + ["\u{7}", "é", "\u{0}", "\n"]
        var generator = SystemRandomNumberGenerator()
        var answered = 0
        for index in 0..<20_000 {
            var frame = Array(Self.flatFrames[index % Self.flatFrames.count])
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let position = Int.random(in: 0...frame.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: frame.insert(alphabet.randomElement(using: &generator)!, at: position)
                case 1 where position < frame.count: frame.remove(at: position)
                default: frame = Array(frame.prefix(position))
                }
            }
            let text = String(frame)
            if let flat = FlatJSONObjectReader.fields(of: text) {
                answered += 1
                #expect(flat == LobbyChatFields.decoded(text), "\(text)")
            }
        }
        // The comparison means something only if the reader answered for many of the mutants.
        #expect(answered > 1_000)
    }
}
