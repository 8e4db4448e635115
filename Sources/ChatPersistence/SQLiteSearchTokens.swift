import ChatCore
import Foundation
import VaporCSQLite

/// `search_tokens(text, sender_id, mentions, mentions_all)`: a message's index tokens (``SearchDocument``), spaced
/// for FTS5's `ascii` tokenizer, as an SQL function of the writer's connection.
///
/// The index is filled by SQL on the writer's thread (``SQLiteMessageSearch/indexPending``, an edit's statements in
/// ``EventEffects``), and the tokens are Swift's, the same PostgreSQL's column holds: the function joins the two.
/// It exists on the writer's connection only, which is the only one that indexes.
enum SQLiteSearchTokens {
    static let name = "search_tokens"

    static func install(on handle: OpaquePointer?) throws {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY
        let installed = sqlite_nio_sqlite3_create_function_v2(
            handle, Self.name, 4, flags, nil, searchTokens, nil, nil, nil)
        guard installed == SQLITE_OK else {
            throw SQLiteCommitError(code: installed, message: "cannot install \(Self.name)")
        }
    }

    /// The tokens of a row's values: text, the sender's id (text or 16 bytes), the mentioned ids (JSON or `NULL`),
    /// `@all` (0 or 1).
    static func tokens(_ values: [OpaquePointer?]) -> String {
        Self.tokens(
            text: Self.text(values[0]) ?? "", sender: Self.uuid(values[1]) ?? UUID(uuid: noSender),
            mentions: Self.text(values[2]), all: sqlite_nio_sqlite3_value_int(values[3]) != 0)
    }

    /// The tokens of a message's columns, as the function gives them: also for statements that run elsewhere than
    /// on the writer's connection (``FluentRoomDirectory/deleteRoom(_:)``).
    static func tokens(text: String, sender: UUID, mentions: String?, all: Bool) -> String {
        let mentioned = mentions.flatMap { try? JSONDecoder().decode([UUID].self, from: Data($0.utf8)) }
        let mentions = Mentions(accounts: mentioned ?? [], all: all)
        return SearchDocument.spaced(SearchDocument.tokens(text: text, sender: sender, mentions: mentions))
    }

    private static func text(_ value: OpaquePointer?) -> String? {
        guard sqlite_nio_sqlite3_value_type(value) != SQLITE_NULL,
            let bytes = sqlite_nio_sqlite3_value_text(value)
        else { return nil }
        let count = Int(sqlite_nio_sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    private static func uuid(_ value: OpaquePointer?) -> UUID? {
        if sqlite_nio_sqlite3_value_type(value) == SQLITE_BLOB, sqlite_nio_sqlite3_value_bytes(value) == 16,
            let bytes = sqlite_nio_sqlite3_value_blob(value)
        {
            var id = noSender
            withUnsafeMutableBytes(of: &id) { $0.copyMemory(from: UnsafeRawBufferPointer(start: bytes, count: 16)) }
            return UUID(uuid: id)
        }
        return Self.text(value).flatMap(UUID.init(uuidString:))
    }
}

/// The C entry point of ``SQLiteSearchTokens``.
private func searchTokens(
    _ context: OpaquePointer?, _ count: Int32, _ values: UnsafeMutablePointer<OpaquePointer?>?
) {
    guard count == 4, let values else {
        sqlite_nio_sqlite3_result_error(context, "search_tokens takes 4 arguments", -1)
        return
    }
    let tokens = SQLiteSearchTokens.tokens(Array(UnsafeBufferPointer(start: values, count: 4)))
    let length = Int32(tokens.utf8.count)
    sqlite_nio_sqlite3_result_text(context, tokens, length, searchTokensTransient)
}

/// SQLite's `SQLITE_TRANSIENT`: it copies the result before the call returns.
private let searchTokensTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// An all-zero id, for a row without a readable sender.
private let noSender: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
