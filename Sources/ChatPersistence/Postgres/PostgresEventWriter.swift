import ChatCore
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
/// A plain batch is written in one transaction of two statements: move the room's counter by the batch's size
/// (which locks its row until commit, so the next batch of this room, on any node, waits there) and `NOTIFY` the
/// other nodes with the room's new last `seq` (delivered at commit, so no node reads before the rows are visible);
/// then insert the events, numbered up to that `seq` (a trigger moves their senders' read positions,
/// ``AddReadOnSend``); then what they change, if anything (``EventEffects``). Retries are found by the unique index
/// of `(sender, clientMsgID)`, not looked up first: when it refuses the batch, the batch is written again with its
/// retries' originals read under the room's lock (``RetriedEvents``). *Why:* every statement is a round trip and a
/// parse on PostgreSQL's side, and a fresh message, the usual case, needs no read.
public struct PostgresEventWriter: EventWriter {
    /// The channel every node listens on; a payload is `LASTSEQ:ROOM` (a hint, never the data: NOTIFY payloads
    /// stop at 8,000 bytes).
    public static let channel = "swiftchat_events"

    private let client: PostgresClient
    private let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    public func append(
        _ events: [StoredMessage], isolation: isolated (any Actor)? = #isolation
    ) async throws -> [StoredMessage] {
        guard let room = events.first?.room else { return [] }
        do {
            return try await self.client.withTransaction(logger: self.logger) { connection in
                let sql = connection.sql(queryLogLevel: nil)
                let newLast = try await Self.advance(room, by: events.count, on: sql)
                let numbered = RetriedEvents.none.numbering(events, from: newLast - Int64(events.count) + 1).fresh
                try await Self.store(numbered, on: sql)
                return numbered
            }
        } catch let error as PostgresTransactionError
            where (error.closureError as? any DatabaseError)?.isConstraintFailure == true
            && events.contains(where: { $0.clientMsgID != nil })
        {
            return try await self.appendWithRetries(events, room: room)
        }
    }

    /// The batch again after the unique index refused it: its retries get their originals back, read under the room's
    /// lock; the rest is numbered and stored.
    private func appendWithRetries(_ events: [StoredMessage], room: RoomID) async throws -> [StoredMessage] {
        try await self.client.withTransaction(logger: self.logger) { connection in
            let sql = connection.sql(queryLogLevel: nil)
            let last = try await Self.advance(room, by: 0, on: sql)
            let retried = try await RetriedEvents.read(for: events, on: sql)
            let (stored, fresh) = retried.numbering(events, from: last + 1)
            guard !fresh.isEmpty else { return stored }
            _ = try await Self.advance(room, by: fresh.count, on: sql)
            try await Self.store(fresh, on: sql)
            return stored
        }
    }

    /// Moves the room's counter by `count` (creating it the first time), holding its row's lock until commit, and,
    /// when `count` is not 0, notifies the other nodes of the new last `seq` at commit; returns that `seq`.
    private static func advance(_ room: RoomID, by count: Int, on sql: any SQLDatabase) async throws -> Int64 {
        let notify: SQLQueryString =
            count == 0
            ? "" : ", pg_notify(\(bind: Self.channel), room_sequences.last_seq || ':' || room_sequences.room)"
        return try await sql.raw(
            "INSERT INTO room_sequences (room, last_seq) VALUES (\(bind: room.rawValue), \(bind: Int64(count))) ON CONFLICT (room) DO UPDATE SET last_seq = room_sequences.last_seq + EXCLUDED.last_seq RETURNING room_sequences.last_seq\(notify)"
        ).first(decodingColumn: "last_seq", as: Int64.self) ?? 0
    }

    private static func store(_ events: [StoredMessage], on sql: any SQLDatabase) async throws {
        for statement in EventEffects.storing(events, on: sql) {
            try await sql.execute(sql: statement) { _ in }
        }
    }
}
