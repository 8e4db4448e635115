import Foundation
import PostgresNIO

/// The statements run for every message, prepared once per connection: PostgreSQL then parses and plans each once,
/// not at every call (planning was the larger part of their cost, BENCHMARKS.md).
enum PostgresStatements {
    /// Whether an account belongs to a room: one row or none.
    struct IsMember: PostgresPreparedStatement {
        static let sql = "SELECT 1 FROM memberships WHERE room_id = $1 AND user_id = $2 LIMIT 1"
        typealias Row = Int32

        let room: String
        let user: UUID

        func makeBindings() throws -> PostgresBindings { try PostgresBindings(binding: self.room, self.user) }

        func decodeRow(_ row: PostgresRow) throws -> Int32 { try row.decode(Int32.self) }
    }

    /// A member's role, whether they are muted, and their notification level: one row, or none for someone who is
    /// not a member.
    struct Standing: PostgresPreparedStatement {
        static let sql = """
            SELECT m.role, EXISTS (SELECT 1 FROM room_restrictions r \
            WHERE r.room_id = m.room_id AND r.user_id = m.user_id AND r.kind = 'mute'), m.notification_level \
            FROM memberships m WHERE m.room_id = $1 AND m.user_id = $2 LIMIT 1
            """
        typealias Row = (String, Bool, String?)

        let room: String
        let user: UUID

        func makeBindings() throws -> PostgresBindings { try PostgresBindings(binding: self.room, self.user) }

        func decodeRow(_ row: PostgresRow) throws -> (String, Bool, String?) {
            try row.decode((String, Bool, String?).self)
        }
    }

    /// Moves rooms' counters by their counts (creating each the first time), locking their rows until commit in the
    /// order of the rooms' names (every node's transactions lock in that order, so none waits for another in a
    /// cycle), and queues the `NOTIFY` of each room's new last `seq`, which PostgreSQL delivers at commit; returns
    /// each room with that `seq`. One statement for one room or for a joint batch of many.
    struct AdvanceRooms: PostgresPreparedStatement {
        static let sql = """
            INSERT INTO room_sequences (room, last_seq) \
            SELECT room, count FROM unnest($1::text[], $2::bigint[]) AS batch(room, count) ORDER BY room \
            ON CONFLICT (room) DO UPDATE SET last_seq = room_sequences.last_seq + EXCLUDED.last_seq \
            RETURNING room_sequences.room, room_sequences.last_seq, \
            pg_notify($3, room_sequences.last_seq || ':' || room_sequences.room)
            """
        typealias Row = (String, Int64)

        let rooms: [String]
        let counts: [Int64]

        func makeBindings() throws -> PostgresBindings {
            try PostgresBindings(binding: self.rooms, self.counts, PostgresEventWriter.channel)
        }

        /// The third column is `pg_notify`'s, which returns nothing.
        func decodeRow(_ row: PostgresRow) throws -> (String, Int64) {
            let columns = row.makeRandomAccess()
            return (try columns[0].decode(String.self), try columns[1].decode(Int64.self))
        }
    }
}

extension PostgresBindings {
    /// The bindings of a prepared statement's `$1`, `$2`..., in order.
    public init(binding values: any PostgresEncodable...) throws {
        self.init(capacity: values.count)
        for value in values { try self.append(value) }
    }
}
