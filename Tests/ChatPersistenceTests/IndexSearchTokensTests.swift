import ChatCore
import ChatProtocol
import FluentKit
import Foundation
import Logging
import SQLKit
import Testing

@testable import ChatPersistence

@Suite("SQLite's index of the server's tokens replaces the word index (IndexSearchTokens)")
struct IndexSearchTokensTests {
    @Test("a database from before the migration finds a Chinese word inside a sentence once the writer catches up")
    func upgradedDatabaseFindsWordsInsideRuns() async throws {
        let file = try await MigratedSQLiteFile.open(searchDelay: .hours(1))
        let sql = try #require(file.database as? any SQLDatabase)
        let reader = try await SearchFollowsCommitsTests.account("reader", in: file)
        try await FluentRoomDirectory(database: file.database).create(
            RoomInfo(id: "r", kind: .channel, name: "r", createdBy: reader), members: [reader])
        let migration = try #require(ChatMigrations.all.first { $0.name.hasSuffix("IndexSearchTokens") })
        let ann = Sender(name: "ann", id: UUID())
        let date = Date(timeIntervalSinceReferenceDate: 800_000_000)
        // arrange: a database as it was before the migration, with its messages in the word index
        try await migration.revert(on: file.database).get()
        try await file.store.append(
            [
                StoredMessage(room: "r", seq: 1, id: UUID(), sender: ann, text: "我们明天开会讨论预算", date: date),
                StoredMessage(room: "r", seq: 2, id: UUID(), sender: ann, text: "an ordinary day", date: date),
            ], isolation: nil)
        try await sql.raw(SQLQueryString(SQLiteWordIndex.indexPending[0])).run()
        // The control: the word index misses 开会 inside the sentence.
        #expect(try await sql.raw("SELECT rowid FROM message_search WHERE message_search MATCH '开会'").all().isEmpty)
        // act
        try await migration.prepare(on: file.database).get()
        try await file.store.append(
            [
                StoredMessage(
                    room: "r", seq: 3, id: UUID(), sender: ann, kind: .edit, text: "an ordinal day", date: date,
                    target: 2)
            ], isolation: nil)
        try await file.writer.catchUpSearchIndex(logger: Logger(label: "migration-test"))
        // validate
        let search = SQLiteMessageSearch(database: sql, writer: file.writer)
        func seqs(_ text: String) async throws -> [Int64] {
            try await search.search(SearchFollowsCommitsTests.criteria(text), for: reader, limit: 5).map(\.seq)
        }
        #expect(try await seqs("开会") == [1])
        #expect(try await seqs("讨论预算") == [1])
        #expect(try await seqs("ordinal") == [2])
        #expect(try await seqs("ordinary") == [])
        #expect(try await SearchFollowsCommitsTests.indexedCount(sql) == 2)
        try await sql.raw("INSERT INTO message_search(message_search) VALUES ('integrity-check')").run()
        await file.close()
    }
}
