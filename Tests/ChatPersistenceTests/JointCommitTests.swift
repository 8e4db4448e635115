import ChatCore
import ChatPersistence
import ChatProtocol
import ChatTestSupport
import Foundation
import PostgresNIO
import Testing

/// ``PostgresEventWriter``'s group commit across rooms: batches of rooms that commit while another transaction runs
/// are written together, and one room's refusal or retry stays that room's.
@Suite("PostgreSQL joint commits")
struct JointCommitTests {
    let ann = Sender(name: "ann", id: UUID())

    func message(_ room: RoomID, text: String, clientMsgID: String? = nil) -> StoredMessage {
        var message = StoredMessage(
            room: room, seq: 1, id: UUID(), sender: self.ann, text: text,
            date: Date(timeIntervalSinceReferenceDate: 800_000_000))
        message.clientMsgID = clientMsgID
        return message
    }

    /// Holds room `blocker`'s counter locked from another connection, appends one message there (its transaction
    /// waits on the lock, so the writer is busy), then starts `batches` while it waits: they queue and go together
    /// once the lock is released. Returns each batch's outcome, in order.
    func whileBusy(
        _ database: MigratedPostgresDatabase, blocker: RoomID, _ batches: [[StoredMessage]]
    ) async throws -> [Result<[StoredMessage], any Error>] {
        let store = database.store
        _ = try await store.append([self.message(blocker, text: "first")], isolation: nil)
        let held = AsyncStream<Void>.makeStream()
        let locked = AsyncStream<Void>.makeStream()
        let holder = Task {
            try await database.client.withTransaction(logger: .init(label: "holder")) { connection in
                _ = try await connection.query(
                    "SELECT last_seq FROM room_sequences WHERE room = \(blocker.rawValue) FOR UPDATE",
                    logger: .init(label: "holder"))
                locked.continuation.yield()
                for await _ in held.stream { break }
            }
        }
        for await _ in locked.stream { break }
        let blocked = Task { try await store.append([self.message(blocker, text: "blocked")], isolation: nil) }
        try await self.waitForLockWaiter(database.client)
        let queued = batches.map { batch in
            Task { () -> Result<[StoredMessage], any Error> in
                do { return .success(try await store.append(batch, isolation: nil)) } catch { return .failure(error) }
            }
        }
        try await eventually("every batch waits in the writer's queue behind the blocked transaction") {
            database.writer.waiting == batches.count
        }
        held.continuation.yield()
        try await holder.value
        #expect(try await blocked.value.map(\.seq) == [2])
        var outcomes: [Result<[StoredMessage], any Error>] = []
        for task in queued { outcomes.append(await task.value) }
        return outcomes
    }

    /// Until a backend waits for a row lock.
    func waitForLockWaiter(_ client: PostgresClient) async throws {
        try await eventually("a transaction waits for the held lock", within: .seconds(5)) {
            let rows = try await client.query(
                "SELECT count(*) FROM pg_locks WHERE NOT granted", logger: .init(label: "probe"))
            for try await count in rows.decode(Int64.self) where count > 0 { return true }
            return false
        }
    }

    @Test("rooms that commit together are each numbered after their own last seq, gap-free")
    func together() async throws {
        let database = try await MigratedPostgresDatabase.open()
        let store = database.store
        _ = try await store.append([self.message("b", text: "b1")], isolation: nil)
        let outcomes = try await self.whileBusy(
            database, blocker: "a",
            [
                [self.message("b", text: "b2"), self.message("b", text: "b3")],
                [self.message("c", text: "c1")],
                [self.message("d", text: "d1"), self.message("d", text: "d2")],
            ])
        let seqs = try outcomes.map { try $0.get().map(\.seq) }
        #expect(seqs == [[2, 3], [1], [1, 2]])
        #expect(try await store.latest(in: "b", limit: 10).map(\.text) == ["b1", "b2", "b3"])
        #expect(try await store.lastSequence(in: "d") == 2)
        // One transaction wrote them all: their rows carry the same transaction id.
        let rows = try await database.client.query(
            "SELECT DISTINCT xmin::text FROM messages WHERE room IN ('b', 'c', 'd') AND text <> 'b1'",
            logger: .init(label: "probe"))
        var transactions = 0
        for try await _ in rows.decode(String.self) { transactions += 1 }
        #expect(transactions == 1)
        await database.close()
    }

    @Test("in a joint batch, a retry gets its original and a stale edit is refused; the other rooms are stored")
    func refusalsStayTheirRooms() async throws {
        let database = try await MigratedPostgresDatabase.open()
        let store = database.store
        let original = try await store.append([self.message("r", text: "once", clientMsgID: "c-1")], isolation: nil)
        var staleEdit = self.message("e", text: "edit of nothing")
        staleEdit.kind = .edit
        staleEdit.target = 7
        let outcomes = try await self.whileBusy(
            database, blocker: "a",
            [
                [self.message("r", text: "once again", clientMsgID: "c-1"), self.message("r", text: "new")],
                [staleEdit],
                [self.message("f", text: "fine")],
            ])
        let retried = try outcomes[0].get()
        #expect(retried.first?.id == original.first?.id)
        #expect(retried.map(\.seq) == [1, 2])
        #expect(throws: RoomRejection.badTarget) { try outcomes[1].get() }
        #expect(try outcomes[2].get().map(\.seq) == [1])
        #expect(try await store.latest(in: "r", limit: 10).map(\.text) == ["once", "new"])
        #expect(try await store.lastSequence(in: "e") == 0)
        await database.close()
    }

    @Test("a joint batch moves each sender's read position to their last message of each room, sent with an id")
    func readPositionsOfAJointBatch() async throws {
        let database = try await MigratedPostgresDatabase.open()
        let account = Account(
            id: self.ann.id, username: "ann", displayName: "ann", avatarColor: "#000000", passwordHash: "")
        _ = try await FluentAccountStore(database: database.database).create(account)
        let directory = FluentRoomDirectory(database: database.database)
        for room in ["a", "b", "c"] {
            try await directory.create(
                RoomInfo(id: RoomID(room), kind: .channel, name: room, createdBy: self.ann.id), members: [self.ann.id])
        }
        let outcomes = try await self.whileBusy(
            database, blocker: "a",
            [
                [self.message("b", text: "b1", clientMsgID: "1"), self.message("b", text: "b2", clientMsgID: "2")],
                // A message without a clientMsgID (a tutorial protocol's) marks nothing read.
                [self.message("c", text: "c1", clientMsgID: "3"), self.message("c", text: "c2")],
            ])
        #expect(try outcomes.map { try $0.get().map(\.seq) } == [[1, 2], [1, 2]])
        // One transaction wrote both rooms' messages (the case this test is for).
        let writers = try await database.client.query(
            "SELECT count(DISTINCT xmin::text) FROM messages WHERE room IN ('b', 'c')", logger: .init(label: "probe"))
        for try await count in writers.decode(Int64.self) { #expect(count == 1) }
        let rows = try await database.client.query(
            "SELECT room_id, last_read_seq FROM memberships WHERE user_id = \(self.ann.id)",
            logger: .init(label: "probe"))
        var positions: [String: Int64] = [:]
        for try await (room, seq) in rows.decode((String, Int64).self) { positions[room] = seq }
        #expect(positions == ["a": 0, "b": 2, "c": 1])
        await database.close()
    }

    @Test("in a joint batch, senders are checked per room: a non-member's room is refused, one send limit is shared")
    func senderChecksOfAJointBatch() async throws {
        let database = try await MigratedPostgresDatabase.open(sendLimit: SendLimitRule(burst: 1, rate: 1))
        let account = Account(
            id: self.ann.id, username: "ann", displayName: "ann", avatarColor: "#000000", passwordHash: "")
        _ = try await FluentAccountStore(database: database.database).create(account)
        let directory = FluentRoomDirectory(database: database.database)
        for room in ["b", "c"] {
            try await directory.create(
                RoomInfo(id: RoomID(room), kind: .channel, name: room, createdBy: self.ann.id), members: [self.ann.id])
        }
        var stranger = self.message("d", text: "not a member", clientMsgID: "3")
        stranger.sender = Sender(name: "bob", id: UUID())
        let outcomes = try await self.whileBusy(
            database, blocker: "a",
            [
                [self.message("b", text: "b1", clientMsgID: "1")],
                [self.message("c", text: "c1", clientMsgID: "2")],
                [stranger],
            ])
        // ann's burst of one went to whichever of b and c came first; the other is told to wait.
        let stored = outcomes[0..<2].compactMap { try? $0.get() }
        #expect(stored.map { $0.map(\.seq) } == [[1]])
        let limited = outcomes[0..<2].filter {
            if case .failure(RoomRejection.rateLimited) = $0 { true } else { false }
        }
        #expect(limited.count == 1)
        #expect(throws: RoomRejection.forbidden) { try outcomes[2].get() }
        #expect(try await database.store.lastSequence(in: "b") + database.store.lastSequence(in: "c") == 1)
        #expect(try await database.store.lastSequence(in: "d") == 0)
        await database.close()
    }
}
