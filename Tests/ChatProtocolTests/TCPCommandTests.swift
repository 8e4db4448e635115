import ChatProtocol
import Testing

@Suite("TCP commands (PROTOCOL.md §2)")
struct TCPCommandTests {
    @Test func parsesIamAndMsg() {
        #expect(TCPCommand.parse("iam:Luke") == .success(.iam(name: "Luke")))
        #expect(TCPCommand.parse("msg:Hey, how goes it, man?") == .success(.msg(text: "Hey, how goes it, man?")))
    }

    @Test("keeps the whole text, colons included (the Go server cut it at the second colon)")
    func keepsColons() {
        #expect(TCPCommand.parse("msg:time: 12:30") == .success(.msg(text: "time: 12:30")))
    }

    @Test func trimsNames() {
        #expect(TCPCommand.parse("iam:  gregg ") == .success(.iam(name: "gregg")))
    }

    @Test(arguments: ["iam:", "iam:   ", "iam:a:b", "iam:" + String(repeating: "x", count: 65), "iam:a\u{7}b"])
    func rejectsBadNames(line: String) {
        #expect(TCPCommand.parse(line) == .failure(.invalidName))
    }

    @Test(arguments: ["hello", "MSG:x", "msg", "say:hi"])
    func rejectsUnknownCommands(line: String) {
        #expect(TCPCommand.parse(line) == .failure(.unknownCommand))
    }

    @Test func rejectsEmptyMessages() {
        #expect(TCPCommand.parse("msg:") == .failure(.emptyMessage))
        #expect(TCPCommand.parse("msg:   ") == .failure(.emptyMessage))
    }

    @Test func formatsServerLines() {
        #expect(TCPLine.joined("Luke") == "Luke has joined\n")
        #expect(TCPLine.left("Luke") == "Luke has left\n")
        #expect(TCPLine.message(from: "Luke", text: "a:b") == "Luke:a:b\n")
        #expect(TCPLine.message(from: "Luke", text: "two\nlines") == "Luke:two lines\n")
        #expect(TCPLine.error(.notJoined) == "err:send iam:NAME before msg:TEXT\n")
    }
}
