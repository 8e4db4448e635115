import ChatCore
import Foundation
import Testing

@Suite("Mentions: the names a text holds")
struct MentionRequestTests {
    let sender = Sender(name: "ann", id: UUID())

    @Test("an @ at the start or after a character that cannot be in a username, then a username")
    func names() throws {
        let request = try #require(
            MentionRequest(text: "@Bob, (@carol) mail@dan.example @eve. @ @-x @all", sender: self.sender))
        #expect(request.names == ["bob", "carol", "eve.", "eve", "-x"])
        #expect(request.all)
    }

    @Test("a text without a mention asks for nothing")
    func none() {
        #expect(MentionRequest(text: "no at sign", sender: self.sender) == nil)
        #expect(MentionRequest(text: "a@b and @ alone", sender: self.sender) == nil)
        #expect(MentionRequest(text: "@room", sender: self.sender)?.all == true)
    }
}
