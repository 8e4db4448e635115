import ChatCore
import ChatProtocol
import ChatTestSupport
import FluentKit
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SQLKit
import Testing

@testable import ChatPersistence

@Suite("SQLite's search index follows the commits, off their path (IndexSearchAfterCommit)")
struct SearchFollowsCommitsTests {
    private let ann = Sender(name: "ann", id: UUID())
    private let date = Date(timeIntervalSinceReferenceDate: 800_000_000)

    @Test("a commit leaves its messages to the indexer; a search indexes them first, so it finds every one")
    func searchFindsWhatIsNotIndexedYet() async throws {
        let (file, sql, reader) = try await Self.roomWithReader()
        let search = SQLiteMessageSearch(database: sql, writer: file.writer)
        try await file.store.append([self.message(1, "a walrus on the beach")], isolation: nil)
        // The control: the commit did not index it (so the search below has something to catch up with).
        #expect(try await Self.indexedCount(sql) == 0)
        let found = try await search.search(Self.criteria("walrus"), for: reader, limit: 5)
        #expect(found.map(\.seq) == [1])
        #expect(try await Self.indexedCount(sql) == 1)
        await file.close()
    }

    @Test("a search with nothing new to index does not wait behind the writes queued before it; after a commit it does")
    func searchSkipsAnEmptyRound() async throws {
        let (file, sql, reader) = try await Self.roomWithReader()
        let search = SQLiteMessageSearch(database: sql, writer: file.writer)
        try await file.store.append([self.message(1, "a walrus on the beach")], isolation: nil)
        _ = try await search.search(Self.criteria("walrus"), for: reader, limit: 5)
        // arrange: a write that holds the writer's queue until it is let go
        let held = sql.eventLoop.makePromise(of: Void.self)
        let holding = file.writer.serially { held.futureResult }
        // act: a search, with nothing committed since the last round
        let returned = NIOLockedValueBox(false)
        let searching = Task {
            defer { returned.withLockedValue { $0 = true } }
            return try await search.search(Self.criteria("walrus"), for: reader, limit: 5)
        }
        // validate: it returns while the queue is held (a failure lets go after ten seconds rather than hang)
        try? await eventually("the search returns", within: .seconds(10)) { returned.withLockedValue { $0 } }
        #expect(returned.withLockedValue { $0 })
        held.succeed()
        try await holding.get()
        #expect(try await searching.value.map(\.seq) == [1])
        // and a commit makes the next search index first
        try await file.store.append([self.message(2, "another walrus")], isolation: nil)
        let found = try await search.search(Self.criteria("walrus"), for: reader, limit: 5)
        #expect(found.map(\.seq).sorted() == [1, 2])
        await file.close()
    }

    @Test("edits and deletes reach the index whether or not their message was indexed yet; FTS5 finds it sound")
    func editsBeforeAndAfterIndexing() async throws {
        let (file, sql, reader) = try await Self.roomWithReader()
        let search = SQLiteMessageSearch(database: sql, writer: file.writer)
        try await file.store.append([self.message(1, "alpha"), self.message(2, "beta")], isolation: nil)
        try await file.writer.indexSearch()
        // act: an edit and a delete of indexed messages, then of messages not indexed yet
        try await file.store.append([self.edit(3, of: 1, to: "gamma")], isolation: nil)
        try await file.store.append([self.delete(4, of: 2)], isolation: nil)
        try await file.store.append([self.message(5, "delta"), self.message(6, "omega")], isolation: nil)
        try await file.store.append([self.edit(7, of: 5, to: "epsilon")], isolation: nil)
        try await file.store.append([self.delete(8, of: 6)], isolation: nil)
        // validate
        func seqs(_ word: String) async throws -> [Int64] {
            try await search.search(Self.criteria(word), for: reader, limit: 5).map(\.seq)
        }
        #expect(try await seqs("alpha") == [])
        #expect(try await seqs("gamma") == [1])
        #expect(try await seqs("beta") == [])
        #expect(try await seqs("delta") == [])
        #expect(try await seqs("epsilon") == [5])
        #expect(try await seqs("omega") == [])
        // one entry per message that stands (edits and deletes are events of their own, never indexed; a deleted
        // message leaves the index), and FTS5's own check of its structure
        #expect(try await Self.indexedCount(sql) == 2)
        try await sql.raw("INSERT INTO message_search(message_search) VALUES ('integrity-check')").run()
        await file.close()
    }

    @Test("what a stop left unindexed is indexed by the writer's first round after the start")
    func restartIndexesTheRest() async throws {
        let (file, sql, _) = try await Self.roomWithReader()
        try await file.store.append([self.message(1, "left behind")], isolation: nil)
        #expect(try await Self.indexedCount(sql) == 0)
        // act: what the server does when it starts, with a writer of its own that has not committed anything
        let restarted = try await SQLiteWriteConnection.open(
            path: file.path, durability: .process, threadPool: .singleton, on: sql.eventLoop,
            logger: Logger(label: "restart-test"), checkpointing: false)
        try await restarted.writer.catchUpSearchIndex(logger: Logger(label: "restart-test"))
        await restarted.close()
        // validate
        #expect(try await Self.indexedCount(sql) == 1)
        let position = try await sql.raw("SELECT indexed_upto FROM search_position").first()?.decode(
            column: "indexed_upto", as: Int.self)
        #expect(position == 1)
        await file.close()
    }

    @Test("without a search, the indexer catches up shortly after the commit")
    func indexerCatchesUpAlone() async throws {
        let (file, sql, _) = try await Self.roomWithReader(searchDelay: SerialSQLWriter.searchDelay)
        try await file.store.append([self.message(1, "soon")], isolation: nil)
        try await eventually("the message is indexed", within: .seconds(5)) { try await Self.indexedCount(sql) > 0 }
        #expect(try await Self.indexedCount(sql) == 1)
        await file.close()
    }

    private func message(_ seq: Int64, _ text: String) -> StoredMessage {
        StoredMessage(room: "r", seq: seq, id: UUID(), sender: self.ann, text: text, date: self.date)
    }

    private func edit(_ seq: Int64, of target: Int64, to text: String) -> StoredMessage {
        StoredMessage(
            room: "r", seq: seq, id: UUID(), sender: self.ann, kind: .edit, text: text, date: self.date, target: target)
    }

    private func delete(_ seq: Int64, of target: Int64) -> StoredMessage {
        StoredMessage(
            room: "r", seq: seq, id: UUID(), sender: self.ann, kind: .delete, text: "", date: self.date, target: target)
    }

    /// The criteria of a query typed into a search box.
    static func criteria(_ text: String) throws -> SearchCriteria {
        var criteria = SearchCriteria()
        criteria.required = try SearchQuery.parse(text).phrases.map { [$0] }
        return criteria
    }

    /// A new account's id: memberships refer to accounts.
    static func account(_ username: String, in file: MigratedSQLiteFile) async throws -> UUID {
        let id = UUID()
        let account = Account(
            id: id, username: username, displayName: username, avatarColor: "#000000", passwordHash: "")
        _ = try await FluentAccountStore(database: file.database).create(account)
        return id
    }

    /// How many messages the index holds (one size row per indexed message).
    static func indexedCount(_ sql: any SQLDatabase) async throws -> Int {
        try await sql.raw("SELECT COUNT(*) AS n FROM message_search_docsize").first()?.decode(column: "n", as: Int.self)
            ?? -1
    }

    /// A file whose writer indexes only when asked (or after an hour), so that a test sees the index before it
    /// catches up; the last test keeps the server's delay.
    static func roomWithReader(
        searchDelay: TimeAmount = .hours(1)
    ) async throws -> (MigratedSQLiteFile, any SQLDatabase, UUID) {
        let file = try await MigratedSQLiteFile.open(searchDelay: searchDelay)
        let sql = try #require(file.database as? any SQLDatabase)
        let reader = try await Self.account("reader", in: file)
        try await FluentRoomDirectory(database: file.database).create(
            RoomInfo(id: "r", kind: .channel, name: "r", createdBy: reader), members: [reader])
        return (file, sql, reader)
    }
}
