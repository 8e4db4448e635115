import FluentKit
import SQLKit

/// Moves a sender's read position to the message they send (PROTOCOL.md §8.5, what I write I have read) in the
/// database itself, by a trigger on `messages`: a message (not an edit, delete or reaction) with a `clientMsgID`,
/// that is sent over the modern protocol, as ``StoredMessage/marksRead`` says. *Why a trigger:* the insert stays
/// one statement, so SQLite's writer commits a plain batch in one call to its thread, with no `BEGIN` and `COMMIT`
/// around it, and PostgreSQL saves a round trip per batch.
public struct AddReadOnSend: AsyncMigration {
    /// The trigger's name, which `migrate-to-postgres` turns off while it copies rows that already carry their read
    /// positions.
    public static let trigger = "messages_read_on_send"

    public init() {}

    private static let update = """
        UPDATE memberships SET last_read_seq = NEW.seq
        WHERE room_id = NEW.room AND user_id = NEW.sender_id AND last_read_seq < NEW.seq
        """

    public func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        let statements =
            sql.dialect.name == "postgresql"
            ? [
                """
                CREATE FUNCTION swiftchat_read_on_send() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN \(Self.update); RETURN NULL; END $$
                """,
                """
                CREATE TRIGGER \(Self.trigger) AFTER INSERT ON messages FOR EACH ROW
                WHEN (NEW.kind = 'message' AND NEW.client_msg_id IS NOT NULL) EXECUTE FUNCTION swiftchat_read_on_send()
                """,
            ]
            : [
                """
                CREATE TRIGGER \(Self.trigger) AFTER INSERT ON messages
                WHEN NEW.kind = 'message' AND NEW.client_msg_id IS NOT NULL
                BEGIN \(Self.update); END
                """
            ]
        for statement in statements {
            try await sql.raw(SQLQueryString(statement)).run()
        }
    }

    public func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        guard sql.dialect.name == "postgresql" else {
            return try await sql.raw("DROP TRIGGER \(unsafeRaw: Self.trigger)").run()
        }
        try await sql.raw("DROP TRIGGER \(unsafeRaw: Self.trigger) ON messages").run()
        try await sql.raw("DROP FUNCTION swiftchat_read_on_send()").run()
    }
}
