import ChatCore
import ChatPersistence
import ChatProtocol
import FluentKit
import Foundation
import SQLKit
import Testing

@Suite("SQLite's search index with prefixes")
struct SearchPrefixIndexTests {
    @Test(
        "the migration that adds prefixes remakes the index from the messages already stored, with secure-delete kept on"
    )
    func migrationRemakesTheIndex() async throws {
        let file = try await MigratedSQLiteFile.open()
        let sql = try #require(file.database as? any SQLDatabase)
        let migration = try #require(ChatMigrations.all.first { $0.name.hasSuffix("AddSearchPrefixIndex") })
        let ann = Sender(name: "ann", id: UUID())
        let date = Date(timeIntervalSinceReferenceDate: 800_000_000)
        try await file.store.append(
            [
                StoredMessage(room: "r", seq: 1, id: UUID(), sender: ann, text: "an ordinary day", date: date),
                StoredMessage(
                    room: "r", seq: 2, id: UUID(), sender: ann, text: "the password is swordfish", date: date),
                StoredMessage(
                    room: "r", seq: 3, id: UUID(), sender: ann, kind: .edit, text: "ordinal", date: date, target: 1),
            ], isolation: nil)
        // arrange: a database from before the migration (its revert remakes the old index from the messages)
        try await migration.revert(on: file.database).get()
        #expect(try await Self.definition(sql).contains("prefix") == false)
        #expect(try await Self.matches("ordinal", sql) == 1)
        // act
        try await migration.prepare(on: file.database).get()
        // validate: prefixes indexed, every message found again (the edit rewrote the first), edit events not indexed
        #expect(try await Self.definition(sql).contains("prefix='3'"))
        #expect(try await Self.matches("ord*", sql) == 1)
        #expect(try await Self.matches("ordinal", sql) == 1)
        #expect(try await Self.matches("swordfish", sql) == 1)
        // and a deleted message's words still leave the index's storage (secure-delete is on again)
        try await file.store.append(
            [StoredMessage(room: "r", seq: 4, id: UUID(), sender: ann, kind: .delete, text: "", date: date, target: 2)],
            isolation: nil)
        #expect(try await !SearchIndexErasureTests.indexBlocksContain("swordfish", sql))
        await file.close()
    }

    static func definition(_ sql: any SQLDatabase) async throws -> String {
        let row = try await sql.raw("SELECT sql FROM sqlite_master WHERE name = 'message_search'").first()
        return try row?.decode(column: "sql", as: String.self) ?? ""
    }

    static func matches(_ query: String, _ sql: any SQLDatabase) async throws -> Int {
        try await sql.raw("SELECT rowid FROM message_search WHERE message_search MATCH \(bind: query)").all().count
    }
}
