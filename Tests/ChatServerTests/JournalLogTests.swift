import Logging
import Testing

@testable import ChatServer

/// Log lines for systemd's journal (docs/OPERATIONS.md §4): priorities journald reads, chosen only when standard
/// output is the journal's own stream.
@Suite("Logs for the journal: syslog priorities when standard output is journald's stream")
struct JournalLogTests {
    @Test("each level gets its syslog priority; the time is left to the journal; a line break stays in one entry")
    func lines() {
        let expected: [(Logger.Level, Int)] = [
            (.trace, 7), (.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3), (.critical, 2),
        ]
        for (level, priority) in expected {
            let line = JournalLogHandler.line(
                level, label: "swiftchat", metadata: ["node": "chat1", "conn": "7"], source: "ChatServer", "hello")
            #expect(line == "<\(priority)>\(level.rawValue) swiftchat: conn=7 node=chat1 [ChatServer] hello\n")
        }
        #expect(
            JournalLogHandler.line(.error, label: "s", metadata: [:], source: "X", "two\nlines")
                == "<3>error s: [X] two\\nlines\n")
    }

    @Test("only a JOURNAL_STREAM naming standard output's socket means the journal")
    func detection() {
        #expect(JournalLogHandler.isJournal(["JOURNAL_STREAM": "8:123456"], standardOutputSocket: 123_456))
        #expect(!JournalLogHandler.isJournal(["JOURNAL_STREAM": "8:999"], standardOutputSocket: 123_456))
        #expect(!JournalLogHandler.isJournal([:], standardOutputSocket: 123_456))
        #expect(!JournalLogHandler.isJournal(["JOURNAL_STREAM": "8:123456"], standardOutputSocket: nil))
        #expect(!JournalLogHandler.isJournal(["JOURNAL_STREAM": "garbage"], standardOutputSocket: 123_456))
    }
}
