import ChatCore
import ChatProtocol
import FluentSQL
import Foundation
import Logging
import PostgresKit
import PostgresNIO
import SQLKit

/// Writes a room's batch to PostgreSQL, where several nodes write the same rooms: the batch is numbered inside its
/// transaction, under a lock on the room's row of `room_sequences`, so sequence numbers are gap-free and follow
/// commit order whichever node commits (never a PostgreSQL `SEQUENCE`, which is not transactional and leaves gaps).
///
/// The server's writer first checks, in the same transaction, every account's send of the batch
/// (``PostgresSenderChecks``: membership and the shared send limit); the sends refused there are answered on their
/// own (``MessageStore/appendEach(_:isolation:)``) and the rest is written as below.
///
/// A plain batch is written in one transaction of two statements: move the room's counter by the batch's size
/// (which locks its row until commit, so the next batch of this room, on any node, waits there) and `NOTIFY` the
/// other nodes with the room's new last `seq` (delivered at commit, so no node reads before the rows are visible);
/// then insert the events, numbered up to that `seq` (a trigger moves their senders' read positions,
/// ``AddReadOnSend``); then what they change, if anything (``EventEffects``). Retries are found by the unique index
/// of `(sender, clientMsgID)`, not looked up first: when it refuses the batch, the batch is written again with its
/// retries' originals read under the room's lock (``RetriedEvents``). *Why:* every statement is a round trip and a
/// parse on PostgreSQL's side, and a fresh message, the usual case, needs no read.
///
/// **Group commit across rooms.** Rooms that commit while another batch is being written go together in the next
/// transaction (``BatchQueue``): one statement moves every room's counter, in the order of the rooms' names (so two
/// nodes' transactions always lock rooms in the same order and never wait for each other in a cycle), one `INSERT`
/// writes every event, and one commit (one WAL flush, one wake-up of the listening nodes) serves them all. With
/// many rooms active at once, a room's batch is rarely more than one message, and the commit is most of the cost
/// (BENCHMARKS.md, issue 12). A room alone, the usual case at low load, is written at once, as before. When the
/// joint transaction is refused (a retry found by the unique index, a target gone), each room's batch is written
/// again on its own, so one room's refusal is never another's.
public struct PostgresEventWriter: EventWriter {
    /// The channel every node listens on; a payload is `LASTSEQ:ROOM` (a hint, never the data: NOTIFY payloads
    /// stop at 8,000 bytes).
    public static let channel = "swiftchat_events"
    /// Rooms per transaction at most: enough to share a commit among many, few enough that no transaction holds
    /// many rooms' locks for long.
    static let maxRoomsPerTransaction = 64

    private let queue: BatchQueue<[StoredMessage], [Result<StoredMessage, RoomRejection>]>

    /// - Parameters:
    ///   - deadline: how long one transaction may take before its rooms are answered with ``DeadlineExceeded`` and
    ///     the writer goes on (PostgresNIO can leave a query on a dead connection unanswered).
    ///   - sendLimit: when given, every account's send is checked as it commits (``PostgresSenderChecks``):
    ///     membership of its room and this shared send limit. The server's writer; a bare store's has none.
    public init(client: PostgresClient, logger: Logger, deadline: Duration, sendLimit: SendLimitRule? = nil) {
        let transactions = RoomTransactions(
            client: client, logger: logger, deadline: deadline,
            checks: sendLimit.map { PostgresSenderChecks(rule: $0, logger: logger) })
        self.queue = BatchQueue(maxBatch: Self.maxRoomsPerTransaction) { batches in
            await transactions.write(batches)
        }
    }

    /// How many rooms' batches wait behind the transaction that runs now.
    public var waiting: Int { self.queue.waiting }

    /// Every event stored, or the first refusal thrown. With sender checks, use ``appendEach(_:isolation:)``: the
    /// events that passed are stored even when this throws for one that did not.
    public func append(
        _ events: [StoredMessage], isolation: isolated (any Actor)? = #isolation
    ) async throws -> [StoredMessage] {
        try await self.appendEach(events, isolation: isolation).map { try $0.get() }
    }

    public func appendEach(
        _ events: [StoredMessage], isolation: isolated (any Actor)? = #isolation
    ) async throws -> [Result<StoredMessage, RoomRejection>] {
        guard !events.isEmpty else { return [] }
        return try await self.queue.submit(events)
    }
}

/// The transactions of ``PostgresEventWriter``: one room's batch, or several rooms' together.
private struct RoomTransactions: Sendable {
    typealias Outcomes = [Result<StoredMessage, RoomRejection>]

    let client: PostgresClient
    let logger: Logger
    /// For each transaction on its own: a room's answer never waits for another room's transaction.
    let deadline: Duration
    /// What decides, in each transaction, which accounts' sends may be stored; none when every event may.
    let checks: PostgresSenderChecks?

    /// Each room's batch as stored, in the batches' order: together when there are several, each on its own when the
    /// joint transaction is refused for one of them.
    func write(_ batches: [[StoredMessage]]) async -> [Result<Outcomes, any Error>] {
        if let checks {
            do {
                try await Deadline.run(within: self.deadline) { [client] in
                    try await checks.prepareBuckets(for: batches.flatMap { $0 }, on: client)
                }
            } catch {
                return batches.map { _ in .failure(error) }
            }
        }
        // A room twice (its first call abandoned at the deadline, say) cannot move its counter twice in one statement.
        if batches.count > 1, Set(batches.map { $0[0].room }).count == batches.count {
            do {
                return try await self.appendTogether(batches).map { .success($0) }
            } catch let refusal where Self.refusesOne(refusal) {
                // each on its own below
            } catch {
                return batches.map { _ in .failure(error) }
            }
        }
        var results: [Result<Outcomes, any Error>] = []
        for batch in batches {
            do {
                results.append(.success(try await self.append(batch)))
            } catch {
                results.append(.failure(error))
            }
        }
        return results
    }

    /// Whether a joint transaction failed because of one room's batch (a retry found by the unique index, a target
    /// gone), which written on its own gets its own answer.
    private static func refusesOne(_ error: any Error) -> Bool {
        if error is RoomRejection { return true }
        guard let error = error as? PostgresTransactionError else { return false }
        return (error.closureError as? any DatabaseError)?.isConstraintFailure == true
    }

    /// One room's batch in one transaction.
    func append(_ events: [StoredMessage]) async throws -> Outcomes {
        guard let room = events.first?.room else { return [] }
        do {
            return try await self.appendTogether([events])[0]
        } catch let error as PostgresTransactionError
            where (error.closureError as? any DatabaseError)?.isConstraintFailure == true
            && events.contains(where: { $0.clientMsgID != nil })
        {
            return try await self.appendWithRetries(events, room: room)
        }
    }

    /// Rooms' batches (one per room, or a single one) in one transaction: every sender checked by one statement,
    /// every counter moved by one statement, in the rooms' order, every event inserted by one statement. Throws what
    /// refused any of them, and nothing is kept then.
    private func appendTogether(_ batches: [[StoredMessage]]) async throws -> [Outcomes] {
        try await self.transaction { connection in
            let refusals = try await self.refusals(of: batches.flatMap { $0 }, on: connection)
            var checked: [CheckedBatch] = []
            var offset = 0
            for batch in batches {
                checked.append(CheckedBatch(batch, refusals: Array(refusals[offset..<offset + batch.count])))
                offset += batch.count
            }
            let advancing = checked.filter { !$0.passing.isEmpty }
            guard !advancing.isEmpty else { return checked.map { $0.outcomes(storing: []) } }
            let lastSeqs = try await self.advance(
                advancing.map(\.room.rawValue), by: advancing.map { Int64($0.passing.count) }, on: connection)
            var numbered: [StoredMessage] = []
            for batch in advancing {
                guard let last = lastSeqs[batch.room.rawValue] else { throw Errors.noSequence(batch.room) }
                numbered +=
                    RetriedEvents.none.numbering(batch.passing, from: last - Int64(batch.passing.count) + 1)
                    .fresh
            }
            let stored = try await Self.store(numbered, on: connection.sql(queryLogLevel: nil))
            let byRoom = Dictionary(grouping: stored, by: \.room)
            return checked.map { $0.outcomes(storing: byRoom[$0.room] ?? []) }
        }
    }

    /// The batch's events with what refuses each (``PostgresSenderChecks``), in the caller's transaction.
    private func checked(_ events: [StoredMessage], on connection: PostgresConnection) async throws -> CheckedBatch {
        CheckedBatch(events, refusals: try await self.refusals(of: events, on: connection))
    }

    private func refusals(of events: [StoredMessage], on connection: PostgresConnection) async throws
        -> [RoomRejection?]
    {
        guard let checks else { return Array(repeating: nil, count: events.count) }
        return try await checks.refusals(of: events, on: connection)
    }

    /// One transaction; a refusal thrown in it (``RoomRejection``) comes out as itself: it is the sender's answer,
    /// not a database failure.
    private func transaction<Written: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Written
    ) async throws -> Written {
        do {
            let (client, logger) = (self.client, self.logger)
            return try await Deadline.run(within: self.deadline) {
                try await client.withTransaction(logger: logger) { connection in try await body(connection) }
            }
        } catch let error as PostgresTransactionError {
            if let refusal = error.closureError as? RoomRejection { throw refusal }
            throw error
        }
    }

    /// The batch again after the unique index refused it: its retries get their originals back, read under the room's
    /// lock; the rest is numbered and stored.
    private func appendWithRetries(_ events: [StoredMessage], room: RoomID) async throws -> Outcomes {
        try await self.transaction { connection in
            let sql = connection.sql(queryLogLevel: nil)
            let batch = try await self.checked(events, on: connection)
            guard !batch.passing.isEmpty else { return batch.outcomes(storing: []) }
            let last = try await self.advance(room, by: 0, on: connection)
            let retried = try await RetriedEvents.read(for: batch.passing, on: sql)
            let (stored, fresh) = retried.numbering(batch.passing, from: last + 1)
            guard !fresh.isEmpty else { return batch.outcomes(storing: stored) }
            _ = try await self.advance(room, by: fresh.count, on: connection)
            let written = try await Self.store(fresh, on: sql)
            return batch.outcomes(storing: stored.map { event in written.first { $0.id == event.id } ?? event })
        }
    }

    /// Moves each room's counter by its count (creating it the first time), holding the rows' locks until commit, and
    /// queues the `NOTIFY` of each room's last `seq` (a hint: one that changes nothing costs the listeners nothing);
    /// returns each room's new last `seq`. Prepared: it runs for every batch.
    private func advance(
        _ rooms: [String], by counts: [Int64], on connection: PostgresConnection
    ) async throws -> [String: Int64] {
        let statement = PostgresStatements.AdvanceRooms(rooms: rooms, counts: counts)
        var lastSeqs: [String: Int64] = [:]
        for (room, last) in try await connection.rows(statement, logger: self.logger) {
            lastSeqs[room] = last
        }
        return lastSeqs
    }

    /// ``advance(_:by:on:)`` for one room.
    private func advance(_ room: RoomID, by count: Int, on connection: PostgresConnection) async throws -> Int64 {
        guard let last = try await self.advance([room.rawValue], by: [Int64(count)], on: connection)[room.rawValue]
        else { throw Errors.noSequence(room) }
        return last
    }

    enum Errors: Error {
        /// The counter's statement returned no row (it always returns one).
        case noSequence(RoomID)
    }

    /// Inserts the events with what they change, after checking again what they refer to; returns them as stored.
    private static func store(_ events: [StoredMessage], on sql: any SQLDatabase) async throws -> [StoredMessage] {
        let checked = try await Self.rechecked(events, on: sql)
        for statement in EventEffects.storing(checked, on: sql) {
            try await sql.execute(sql: statement) { _ in }
        }
        return checked
    }

    /// What each event refers to, as committed now, under the room's lock: the room checked its target before, but
    /// another node may have deleted it since. An edit, delete, reaction or reply whose target is gone is refused
    /// (``RoomRejection/badTarget``), as the room would have. (On SQLite the room is its rooms' only writer: what it
    /// checked still holds.)
    private static func rechecked(_ events: [StoredMessage], on sql: any SQLDatabase) async throws -> [StoredMessage] {
        var checked: [StoredMessage] = []
        for event in events {
            // A target written in the same batch (of this room: a joint batch holds several) needs no read.
            guard let target = event.target ?? event.replyTo?.seq,
                !checked.contains(where: { $0.room == event.room && $0.seq == target && $0.kind == .message })
            else {
                checked.append(event)
                continue
            }
            let row = try await sql.raw(
                "SELECT deleted FROM messages WHERE room = \(bind: event.room.rawValue) AND seq = \(bind: target) AND kind = \(bind: EventKind.message.rawValue)"
            ).first()
            guard let row, try row.decode(column: "deleted", as: Bool.self) == false else {
                throw RoomRejection.badTarget
            }
            checked.append(event)
        }
        return checked
    }
}

/// One room's batch after its senders were checked: the events that may be stored, and each event's answer once
/// they are.
private struct CheckedBatch {
    let events: [StoredMessage]
    let refusals: [RoomRejection?]
    /// The events with no refusal, in order.
    let passing: [StoredMessage]

    init(_ events: [StoredMessage], refusals: [RoomRejection?]) {
        self.events = events
        self.refusals = refusals
        self.passing = zip(events, refusals).filter { $0.1 == nil }.map(\.0)
    }

    var room: RoomID { self.events[0].room }

    /// Each event's answer: its refusal, or what was stored for it (`stored`, one per passing event, in order).
    func outcomes(storing stored: [StoredMessage]) -> [Result<StoredMessage, RoomRejection>] {
        var next = stored.makeIterator()
        return self.refusals.map { refusal in
            if let refusal { return .failure(refusal) }
            // One stored event per passing one, by construction.
            guard let event = next.next() else { preconditionFailure("fewer events stored than passed") }
            return .success(event)
        }
    }
}
