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
/// In one transaction: lock the room's counter and read it; look up, under that lock, the `clientMsgID`s of the
/// batch that a sender already stored (through any node); number the rest; insert them with what they change
/// (``EventEffects``); move the counter; and `NOTIFY` the other nodes with the room's new last `seq` (delivered at
/// commit, so no node reads before the rows are visible).
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
        return try await self.client.withTransaction(logger: self.logger) { connection in
            let sql = connection.sql(queryLogLevel: nil)
            // A no-op update that returns the counter: it creates the row the first time and, either way, holds
            // its lock until commit, so the next batch of this room, on any node, waits here.
            let last =
                try await sql.raw(
                    "INSERT INTO room_sequences (room, last_seq) VALUES (\(bind: room.rawValue), 0) ON CONFLICT (room) DO UPDATE SET last_seq = room_sequences.last_seq RETURNING last_seq"
                ).first(decodingColumn: "last_seq", as: Int64.self) ?? 0
            let retried = try await RetriedEvents.read(for: events, on: sql)
            let (stored, fresh) = retried.numbering(events, from: last + 1)
            guard let newLast = fresh.last?.seq else { return stored }
            for statement in EventEffects.storing(fresh, on: sql) {
                try await sql.execute(sql: statement) { _ in }
            }
            try await sql.raw(
                "UPDATE room_sequences SET last_seq = \(bind: newLast) WHERE room = \(bind: room.rawValue)"
            ).run()
            try await sql.raw("SELECT pg_notify(\(bind: Self.channel), \(bind: "\(newLast):\(room.rawValue)"))")
                .run()
            return stored
        }
    }
}
