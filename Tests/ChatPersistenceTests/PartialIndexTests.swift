import ChatCore
import ChatPersistence
import ChatProtocol
import FluentKit
import Foundation
import SQLKit
import Testing

@Suite("The indexes of columns most messages leave empty hold only the rows with a value")
struct PartialIndexTests {
    @Test("after the migration: partial, still used by the lookups, the retry index still unique; its revert undoes it")
    func partialIndexes() async throws {
        let file = try await MigratedSQLiteFile.open()
        let sql = try #require(file.database as? any SQLDatabase)
        let migration = try #require(ChatMigrations.all.first { $0.name.hasSuffix("SkipEmptyIndexEntries") })
        let ann = Sender(name: "ann", id: UUID())
        let date = Date(timeIntervalSinceReferenceDate: 800_000_000)
        try await file.store.append(
            [
                StoredMessage(room: "r", seq: 1, id: UUID(), sender: ann, text: "from /chat", date: date),
                StoredMessage(
                    room: "r", seq: 2, id: UUID(), sender: ann, text: "modern", date: date, clientMsgID: "c-1"),
                StoredMessage(
                    room: "r", seq: 3, id: UUID(), sender: ann, kind: .edit, text: "x", date: date, target: 2),
            ], isolation: nil)
        // validate: each index holds only its rows with a value
        #expect(try await Self.entries(in: "messages_sender_client_msg_id", sql) == 1)
        #expect(try await Self.entries(in: "messages_room_target", sql) == 1)
        #expect(try await Self.entries(in: "messages_room_reply", sql) == 0)
        #expect(
            try await Self.plan("SELECT seq FROM messages WHERE sender_id = ? AND client_msg_id = 'c-1'", sql)
                .contains("messages_sender_client_msg_id"))
        #expect(
            try await Self.plan("SELECT seq FROM messages WHERE room = 'r' AND target_seq = 2", sql)
                .contains("messages_room_target"))
        #expect(
            try await Self.plan("SELECT seq FROM messages WHERE room = 'r' AND reply_seq = 2", sql)
                .contains("messages_room_reply"))
        // and a second copy of a retried send is still refused by the database
        let retry = StoredMessage(
            room: "r", seq: 4, id: UUID(), sender: ann, text: "modern", date: date, clientMsgID: "c-1")
        await #expect(throws: (any Error).self) {
            try await sql.insert(into: "messages").columns(
                "id", "room", "seq", "sender_name", "sender_id", "text", "created_at", "client_msg_id", "kind",
                "deleted"
            ).values(
                SQLBind(retry.id), SQLBind("r"), SQLBind(4), SQLBind("ann"), SQLBind(ann.id), SQLBind("modern"),
                SQLBind(0.0), SQLBind("c-1"), SQLBind("message"), SQLBind(false)
            ).run()
        }
        // act: revert
        try await migration.revert(on: file.database).get()
        // validate: full indexes again, with an entry per row
        #expect(try await Self.entries(in: "messages_room_reply", sql) == 3)
        try await migration.prepare(on: file.database).get()
        #expect(try await Self.entries(in: "messages_room_reply", sql) == 0)
        await file.close()
    }

    /// How many rows the index holds, counted through the index itself.
    static func entries(in index: String, _ sql: any SQLDatabase) async throws -> Int {
        let definition =
            try await sql.raw("SELECT sql FROM sqlite_master WHERE name = \(bind: index)").first()?
            .decode(column: "sql", as: String.self) ?? ""
        let condition = definition.range(of: " WHERE ").map { String(definition[$0.upperBound...]) } ?? "1"
        let row = try await sql.raw(
            "SELECT COUNT(*) AS n FROM messages INDEXED BY \(ident: index) WHERE \(unsafeRaw: condition)"
        ).first()
        return try row?.decode(column: "n", as: Int.self) ?? -1
    }

    static func plan(_ query: String, _ sql: any SQLDatabase) async throws -> String {
        try await sql.raw("EXPLAIN QUERY PLAN \(unsafeRaw: query)").all().map {
            try $0.decode(column: "detail", as: String.self)
        }.joined(separator: "; ")
    }
}
