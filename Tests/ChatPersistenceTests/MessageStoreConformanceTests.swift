import ChatCore
import ChatPersistence
import ChatProtocol
import FluentKit
import FluentSQLiteDriver
import Foundation
import Logging
import NIOCore
import NIOPosix
import Testing

/// A store under test and how to dispose of it.
struct StoreFixture: Sendable {
    let name: String
    let make: @Sendable () async throws -> (store: any MessageStore, close: @Sendable () async -> Void)
}

/// An empty SQLite file, migrated, opened the way the server opens it.
let sqliteFixture = StoreFixture(name: "SQLite file") {
    let file = try await MigratedSQLiteFile.open()
    return (file.store, file.close)
}

/// A migrated SQLite file in the temporary directory: its store, its read handle for raw SQL, and how to remove it.
struct MigratedSQLiteFile: Sendable {
    let store: FluentMessageStore
    let database: any Database
    /// Fluent's connections to the file, one per event loop.
    let databases: Databases
    /// What the store writes through, which also indexes messages for search.
    let writer: SerialSQLWriter
    /// The database file.
    let path: String
    let close: @Sendable () async -> Void

    /// `searchDelay`: how long after a commit the writer indexes its messages for search.
    static func open(searchDelay: TimeAmount = SerialSQLWriter.searchDelay) async throws -> MigratedSQLiteFile {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString).sqlite")
            .path
        // Threads of its own, as a server has (ChatServer's BlockingThreads): a statement waiting for the write lock
        // sleeps on its thread, and must not take one of the process-wide pool other tests' servers read files on.
        let threads = NIOThreadPool(numberOfThreads: 2)
        threads.start()
        let databases = Databases(threadPool: threads, on: MultiThreadedEventLoopGroup.singleton)
        databases.use(.sqlite(.file(path)), as: .sqlite)
        let logger = Logger(label: "store-test")
        try await SQLiteLockWaits.apply(
            to: databases, .sqlite, eventLoops: MultiThreadedEventLoopGroup.singleton, logger: logger)
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let database = try await migrateDefaultDatabase(of: databases, logger: logger, on: loop)
        let writer = try await SQLiteWriteConnection.open(
            path: path, durability: .process, threadPool: threads, on: loop, logger: logger,
            searchDelay: searchDelay)
        return MigratedSQLiteFile(
            store: FluentMessageStore(database: database, writer: writer.writer), database: database,
            databases: databases, writer: writer.writer, path: path
        ) {
            await writer.close()
            await databases.shutdownAsync()
            try? await threads.shutdownGracefully()
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}

/// Runs every migration on the default database of `databases`, as the server does at start-up, and returns it.
func migrateDefaultDatabase(of databases: Databases, logger: Logger, on loop: any EventLoop) async throws
    -> any Database
{
    let migrations = Migrations()
    migrations.add(ChatMigrations.all)
    let migrator = Migrator(databases: databases, migrations: migrations, logger: logger, on: loop)
    try await migrator.setupIfNeeded().get()
    try await migrator.prepareBatch().get()
    return databases.database(logger: logger, on: loop)!
}

let inMemoryFixture = StoreFixture(name: "in memory") {
    (InMemoryMessageStore(), {})
}

/// The same contract checked against every `MessageStore`, as Fluent's own benchmark runs one suite per driver.
@Suite("MessageStore contract")
struct MessageStoreConformanceTests {
    static let fixtures = [sqliteFixture, inMemoryFixture, postgresFixture]

    func message(_ seq: Int64, room: RoomID = "r", text: String? = nil) -> StoredMessage {
        StoredMessage(
            room: room, seq: seq, id: UUID(), sender: Sender(name: "ann", id: UUID()), text: text ?? "m\(seq)",
            date: Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(seq) + 0.25))
    }

    @Test("appends read back exactly, oldest first, per room", arguments: fixtures)
    func roundTrip(fixture: StoreFixture) async throws {
        let (store, close) = try await fixture.make()
        let first = (1...3).map { self.message($0) }
        let other = [self.message(1, room: "other", text: "elsewhere")]
        try await store.append(first, isolation: nil)
        try await store.append(other, isolation: nil)
        try await store.append([self.message(4, text: "emoji 🎉 and \"quotes\"\nnewline")], isolation: nil)
        let latest = try await store.latest(in: "r", limit: 2)
        #expect(latest.map(\.seq) == [3, 4])
        #expect(latest.last?.text == "emoji 🎉 and \"quotes\"\nnewline")
        #expect(try await store.latest(in: "r", limit: 10).first == first.first)
        #expect(try await store.lastSequence(in: "r") == 4)
        #expect(try await store.lastSequence(in: "other") == 1)
        #expect(try await store.lastSequence(in: "empty") == 0)
        await close()
    }

    @Test(
        "every column of an event reads back as it was written: quotes, attachments, reactions, edits",
        arguments: fixtures)
    func everyColumn(fixture: StoreFixture) async throws {
        let (store, close) = try await fixture.make()
        let tutorial = Sender(name: "tom", id: UUID(), via: .chat)
        let ann = Sender(name: "ann", id: UUID())
        let date = Date(timeIntervalSinceReferenceDate: 800_000_000.25)
        let first = StoredMessage(room: "r", seq: 1, id: UUID(), sender: tutorial, text: "hello from /chat", date: date)
        let attachment = Attachment(
            id: UUID(), name: "cat.png", contentType: "image/png", size: 10, width: 3, height: 4)
        let reply = StoredMessage(
            room: "r", seq: 2, id: UUID(), sender: ann, text: "a reply", date: date.addingTimeInterval(1),
            clientMsgID: "c-2", replyTo: Quote(seq: 1, sender: tutorial, text: "hello from /chat"),
            attachments: [attachment])
        let reaction = StoredMessage(
            room: "r", seq: 3, id: UUID(), sender: ann, kind: .reaction, text: "", date: date.addingTimeInterval(2),
            clientMsgID: "c-3", target: 2, emoji: "👍", added: true)
        let edit = StoredMessage(
            room: "r", seq: 4, id: UUID(), sender: ann, kind: .edit, text: "an edited reply",
            date: date.addingTimeInterval(3), clientMsgID: "c-4", target: 2)
        try await store.append([first, reply, reaction, edit], isolation: nil)
        let read = try await store.latest(in: "r", limit: 10)
        try #require(read.count == 4)
        #expect(read[0] == first)
        var edited = reply
        edited.text = "an edited reply"
        edited.editedAt = edit.date
        #expect(read[1].reactions.map(\.emoji) == ["👍"])
        var readReply = read[1]
        readReply.reactions = []
        #expect(readReply == edited)
        #expect(read[2] == reaction)
        #expect(read[3] == edit)
        await close()
    }

    @Test(
        "counting unread messages stops at the limit, however far behind the reader is, and mentions the same",
        arguments: fixtures)
    func unreadCountStops(fixture: StoreFixture) async throws {
        let (store, close) = try await fixture.make()
        let reader = UUID()
        let over = Int64(UnreadCount.limit) + 5
        var messages = (1...over).map { self.message($0) }
        for index in messages.indices { messages[index].mentions = Mentions(accounts: [], all: true) }
        // In batches of 100, each well within the store's deadline on a loaded machine
        // (one append of all of them ran out of it in CI while another PostgreSQL on the machine was busy).
        for start in stride(from: 0, to: messages.count, by: 100) {
            try await store.append(Array(messages[start..<min(start + 100, messages.count)]), isolation: nil)
        }
        #expect(try await store.unreadCount(in: "r", after: 0, upTo: over, for: reader) == UnreadCount.limit)
        #expect(try await store.unreadMentions(in: "r", after: 0, upTo: over, for: reader) == UnreadCount.limit)
        #expect(try await store.unreadCount(in: "r", after: 10, upTo: 20, for: reader) == 10)
        #expect(try await store.unreadMentions(in: "r", after: over - 3, upTo: over, for: reader) == 3)
        await close()
    }

    @Test("pages read backwards from a sequence number", arguments: fixtures)
    func paging(fixture: StoreFixture) async throws {
        let (store, close) = try await fixture.make()
        try await store.append((1...10).map { self.message($0) }, isolation: nil)
        #expect(try await store.page(in: "r", before: nil, limit: 3).map(\.seq) == [8, 9, 10])
        #expect(try await store.page(in: "r", before: 8, limit: 3).map(\.seq) == [5, 6, 7])
        #expect(try await store.page(in: "r", before: 3, limit: 3).map(\.seq) == [1, 2])
        #expect(try await store.page(in: "other", before: nil, limit: 3).isEmpty)
        await close()
    }

    @Test(
        "a shared store numbers each batch after what is committed, whatever was proposed, and returns a retry's original",
        arguments: [inMemoryFixture, postgresFixture])
    func sharedNumbering(fixture: StoreFixture) async throws {
        let (store, close) = try await fixture.make()
        let ann = Sender(name: "ann", id: UUID())
        #expect(try await store.append([self.message(1), self.message(2)], isolation: nil).map(\.seq) == [1, 2])
        // A writer that has not seen 1 and 2 proposes 1 again.
        #expect(try await store.append([self.message(1, text: "stale")], isolation: nil).map(\.seq) == [3])
        var sent = self.message(4)
        sent.sender = ann
        sent.clientMsgID = "c-1"
        let first = try await store.append([sent], isolation: nil)
        var retry = self.message(1, text: "the same, again")
        retry.sender = ann
        retry.clientMsgID = "c-1"
        let again = try await store.append([retry, self.message(1, text: "new")], isolation: nil)
        #expect(again.first?.id == first.first?.id)
        #expect(again.map(\.seq) == [4, 5])
        #expect(try await store.latest(in: "r", limit: 10).map(\.text) == ["m1", "m2", "stale", "m4", "new"])
        await close()
    }

    @Test(
        "writers racing on one room get gap-free, distinct numbers in commit order",
        arguments: [inMemoryFixture, postgresFixture])
    func racingWriters(fixture: StoreFixture) async throws {
        let (store, close) = try await fixture.make()
        let writers = 10
        let batches = 5
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for batch in 0..<batches {
                        let events = (0..<3).map { self.message(1, text: "w\(writer) b\(batch) #\($0)") }
                        let stored = try await store.append(events, isolation: nil)
                        // One batch is one transaction: its numbers are consecutive.
                        #expect(stored.map(\.seq) == (0..<3).map { stored[0].seq + Int64($0) })
                    }
                }
            }
            try await group.waitForAll()
        }
        let all = try await store.latest(in: "r", limit: 1000)
        #expect(all.map(\.seq) == Array(1...Int64(writers * batches * 3)))
        #expect(Set(all.map(\.text)).count == writers * batches * 3)
        await close()
    }

    @Test("a batch with a sequence number already stored fails whole: nothing half-written")
    func atomicBatch() async throws {
        let (store, close) = try await sqliteFixture.make()
        try await store.append([self.message(1), self.message(2)], isolation: nil)
        await #expect(throws: (any Error).self) {
            try await store.append([self.message(3), self.message(2, text: "duplicate")], isolation: nil)
        }
        #expect(try await store.latest(in: "r", limit: 10).map(\.text) == ["m1", "m2"])
        #expect(try await store.lastSequence(in: "r") == 2)
        await close()
    }
}

extension MessageStoreConformanceTests {
    func event(
        _ seq: Int64, _ kind: EventKind, target: Int64, by sender: Sender, text: String = "", emoji: String? = nil,
        added: Bool? = nil
    ) -> StoredMessage {
        StoredMessage(
            room: "r", seq: seq, id: UUID(), sender: sender, kind: kind, text: text,
            date: Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(seq)), target: target, emoji: emoji,
            added: added)
    }

    @Test(
        "a shared store checks the target again when it commits: what another writer deleted meanwhile is refused",
        arguments: [inMemoryFixture, postgresFixture])
    func targetCheckedAtCommit(fixture: StoreFixture) async throws {
        let (store, close) = try await fixture.make()
        let ann = Sender(name: "ann", id: UUID())
        let bob = Sender(name: "bob", id: UUID())
        var first = self.message(1, text: "to be deleted")
        first.sender = ann
        try await store.append([first], isolation: nil)
        try await store.append([self.event(2, .delete, target: 1, by: ann)], isolation: nil)
        // Events built by a writer that read message 1 before the delete.
        var reply = self.message(3, text: "late reply")
        reply.replyTo = Quote(seq: 1, sender: ann, text: "to be deleted")
        for stale in [self.event(3, .edit, target: 1, by: ann, text: "resurrected"), reply] {
            await #expect(throws: RoomRejection.badTarget) { try await store.append([stale], isolation: nil) }
        }
        #expect(try await store.lastSequence(in: "r") == 2)
        #expect(try await store.message(in: "r", seq: 1)?.text == "")
        await close()
    }

    @Test(
        "edits, reactions and deletes change their target's state; a delete wipes the text everywhere it was kept",
        arguments: fixtures)
    func eventsChangeTheirTarget(fixture: StoreFixture) async throws {
        let (store, close) = try await fixture.make()
        let ann = Sender(name: "ann", id: UUID())
        let bob = Sender(name: "bob", id: UUID())
        let picture = Attachment(id: UUID(), name: "p.png", contentType: "image/png", size: 10, width: 2, height: 3)
        var original = self.message(1, text: "secret plan")
        original.sender = ann
        original.attachments = [picture]
        var reply = self.message(2, text: "sounds good")
        reply.sender = bob
        reply.replyTo = Quote(seq: 1, sender: ann, text: "secret plan")
        try await store.append([original, reply], isolation: nil)
        try await store.append([self.event(3, .edit, target: 1, by: ann, text: "secret plan v2")], isolation: nil)
        try await store.append([self.event(4, .reaction, target: 1, by: bob, emoji: "👍", added: true)], isolation: nil)
        try await store.append([self.event(5, .reaction, target: 1, by: ann, emoji: "👍", added: true)], isolation: nil)

        let edited = try #require(try await store.message(in: "r", seq: 1))
        #expect(edited.text == "secret plan v2" && edited.editedAt != nil && edited.attachments == [picture])
        #expect(edited.reactions == [Reaction(emoji: "👍", users: [bob.id, ann.id])])
        #expect(
            try await store.page(in: "r", before: nil, limit: 10).map(\.kind) == [
                .message, .message, .edit, .reaction, .reaction,
            ])
        #expect(try await store.lastMessage(in: "r", upTo: .max)?.seq == 2)
        #expect(try await store.unreadCount(in: "r", after: 0, upTo: .max, for: ann.id) == 1)
        // As of seq 1, the room had one message, ann's own: nothing unread for her, one for bob.
        #expect(try await store.lastMessage(in: "r", upTo: 1)?.seq == 1)
        #expect(try await store.unreadCount(in: "r", after: 0, upTo: 1, for: ann.id) == 0)
        #expect(try await store.unreadCount(in: "r", after: 0, upTo: 1, for: bob.id) == 1)

        try await store.append([self.event(6, .reaction, target: 1, by: bob, emoji: "👍", added: false)], isolation: nil)
        #expect(try await store.message(in: "r", seq: 1)?.reactions == [Reaction(emoji: "👍", users: [ann.id])])

        try await store.append([self.event(7, .delete, target: 1, by: ann)], isolation: nil)
        let page = try await store.page(in: "r", before: nil, limit: 10)
        #expect(page[0].deleted && page[0].text.isEmpty && page[0].attachments.isEmpty && page[0].reactions.isEmpty)
        #expect(page[1].replyTo?.text == "")
        #expect(page[2].kind == .edit && page[2].text.isEmpty)
        #expect(!page.contains { $0.text.contains("secret") })
        // a deleted message is no longer unread
        #expect(try await store.unreadCount(in: "r", after: 0, upTo: .max, for: bob.id) == 0)
        await close()
    }
}

extension StoreFixture: CustomTestStringConvertible {
    var testDescription: String { self.name }
}
