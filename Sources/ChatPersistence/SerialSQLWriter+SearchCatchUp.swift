import Logging
import NIOCore
import SQLKit

extension SerialSQLWriter {
    /// Messages indexed per transaction while the index catches up.
    static let catchUpBatch = 20_000

    /// Indexes every message the index does not hold yet, at start-up: what a crash left out, or every message after
    /// ``IndexSearchTokens`` made the index anew. In transactions of ``catchUpBatch`` rows (by `rowid`), so a large
    /// history does not make one transaction of a million rows, with its progress in the log when there is much to do.
    public func catchUpSearchIndex(logger: Logger) async throws {
        let (indexed, last) = try await self.serially {
            self.withHandle { handle in
                (
                    try handle.integer("SELECT indexed_upto FROM search_position") ?? 0,
                    try handle.integer("SELECT COALESCE(MAX(rowid), 0) FROM messages") ?? 0
                )
            }
        }.get()
        let announced = last - indexed > Self.catchUpBatch
        if announced { logger.notice("Indexing messages \(indexed + 1) to \(last) for search") }
        var upto = indexed
        while upto < last {
            let end = min(upto + Self.catchUpBatch, last)
            try await self.write(Self.indexing(after: upto, upTo: end)).get()
            upto = end
            if announced { logger.notice("Search index: \(upto - indexed) of \(last - indexed) rows") }
        }
        try await self.indexSearch()
    }

    /// Indexes the messages with a `rowid` in `after + 1 … end` and records that the index holds them.
    private static func indexing(after: Int, upTo end: Int) -> [any SQLExpression] {
        [
            SQLQueryString(
                """
                INSERT INTO message_search(rowid, tokens) SELECT rowid, \(unsafeRaw: SQLiteMessageSearch.tokensOfRow)
                FROM messages WHERE rowid > \(bind: after) AND rowid <= \(bind: end) AND kind = 'message' AND deleted = 0
                """),
            SQLQueryString("UPDATE search_position SET indexed_upto = \(bind: end) WHERE indexed_upto < \(bind: end)"),
        ]
    }
}
