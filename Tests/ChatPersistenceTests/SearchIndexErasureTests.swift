import ChatCore
import ChatPersistence
import ChatProtocol
import FluentKit
import Foundation
import SQLKit
import Testing

@Suite("The search index forgets deleted text")
struct SearchIndexErasureTests {
    @Test("after a delete, the deleted words are gone from the FTS5 index's stored blocks, not only from its results")
    func deletedWordsLeaveTheIndex() async throws {
        let file = try await MigratedSQLiteFile.open()
        let sql = try #require(file.database as? any SQLDatabase)
        let ann = Sender(name: "ann", id: UUID())
        let date = Date(timeIntervalSinceReferenceDate: 800_000_000)
        try await file.store.append(
            [StoredMessage(room: "r", seq: 1, id: UUID(), sender: ann, text: "the password is swordfish", date: date)],
            isolation: nil)
        // The control: the word is in the index before the delete (once indexed: the index follows the commits), so
        // the check below can fail.
        try await file.writer.indexSearch()
        #expect(try await Self.indexBlocksContain("swordfish", sql))
        try await file.store.append(
            [StoredMessage(room: "r", seq: 2, id: UUID(), sender: ann, kind: .delete, text: "", date: date, target: 1)],
            isolation: nil)
        #expect(try await !Self.indexBlocksContain("swordfish", sql))
        await file.close()
    }

    /// Whether any block FTS5 stores for `message_search` holds the word's bytes.
    static func indexBlocksContain(_ word: String, _ sql: any SQLDatabase) async throws -> Bool {
        let rows = try await sql.raw("SELECT block FROM message_search_data").all()
        let needle = Data(word.utf8)
        return try rows.contains { row in
            let block = try row.decode(column: "block", as: Data?.self) ?? Data()
            return block.range(of: needle) != nil
        }
    }
}
