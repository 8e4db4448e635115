import ChatCore
import ChatPersistence
import ChatProtocol
import Foundation
import SQLKit
import Testing

@Suite("SQLite search ranks by relevance up to a bound of matches, then newest first")
struct SearchCandidatesTests {
    /// Eight messages of room "r" that all match "kiwi": the oldest says it four times (the most relevant), the
    /// sixth twice, the others once.
    static func filled() async throws -> (file: MigratedSQLiteFile, sql: any SQLDatabase, reader: UUID) {
        let file = try await MigratedSQLiteFile.open()
        let sql = try #require(file.database as? any SQLDatabase)
        let reader = try await Self.account("reader", in: file)
        try await FluentRoomDirectory(database: file.database).create(
            RoomInfo(id: "r", kind: .channel, name: "r", createdBy: reader), members: [reader])
        let ann = Sender(name: "ann", id: UUID())
        let date = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let texts = (1...8).map { seq in
            switch seq {
            case 1: "kiwi kiwi kiwi kiwi"
            case 6: "kiwi and kiwi again today"
            default: "a kiwi today in message number \(seq)"
            }
        }
        try await file.store.append(
            texts.enumerated().map { index, text in
                StoredMessage(room: "r", seq: Int64(index + 1), id: UUID(), sender: ann, text: text, date: date)
            }, isolation: nil)
        return (file, sql, reader)
    }

    /// A new account's id: memberships refer to accounts.
    static func account(_ username: String, in file: MigratedSQLiteFile) async throws -> UUID {
        let id = UUID()
        let account = Account(
            id: id, username: username, displayName: username, avatarColor: "#000000", passwordHash: "")
        _ = try await FluentAccountStore(database: file.database).create(account)
        return id
    }

    @Test("with room for every match, the most relevant comes first, however old")
    func everyMatchRanked() async throws {
        let (file, sql, reader) = try await Self.filled()
        let search = SQLiteMessageSearch(database: sql, writer: file.writer, candidates: 100)
        let found = try await search.search(try #require(SearchTerms("kiwi")), for: reader, in: nil, limit: 3)
        #expect(found.map(\.message.seq) == [1, 6, 8])
        await file.close()
    }

    @Test("past the bound, the newest matches come first", arguments: ["kiwi", "kiw"])
    func newestFirst(query: String) async throws {
        let (file, sql, reader) = try await Self.filled()
        let search = SQLiteMessageSearch(database: sql, writer: file.writer, candidates: 4)
        let found = try await search.search(try #require(SearchTerms(query)), for: reader, in: nil, limit: 5)
        #expect(found.map(\.message.seq) == [8, 7, 6, 5, 4])
        #expect(found.first?.snippet.contains { $0.isMatch && $0.text == "kiwi" } == true)
        await file.close()
    }

    @Test("the bound counts every room's matches, and only the caller's rooms are shown")
    func otherRoomsAreNotShown() async throws {
        let (file, sql, reader) = try await Self.filled()
        let bob = Sender(name: "bob", id: try await Self.account("bob", in: file))
        try await FluentRoomDirectory(database: file.database).create(
            RoomInfo(id: "elsewhere", kind: .channel, name: "elsewhere", createdBy: bob.id), members: [bob.id])
        let date = Date(timeIntervalSinceReferenceDate: 800_000_001)
        try await file.store.append(
            (1...10).map { seq in
                StoredMessage(room: "elsewhere", seq: Int64(seq), id: UUID(), sender: bob, text: "kiwi", date: date)
            }, isolation: nil)
        // 18 matches in all: newest first, though the caller's 8 alone would be ranked.
        let search = SQLiteMessageSearch(database: sql, writer: file.writer, candidates: 10)
        let found = try await search.search(try #require(SearchTerms("kiwi")), for: reader, in: nil, limit: 3)
        #expect(found.map(\.message.room) == ["r", "r", "r"])
        #expect(found.map(\.message.seq) == [8, 7, 6])
        await file.close()
    }
}
