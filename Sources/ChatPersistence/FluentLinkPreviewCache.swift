import ChatCore
import FluentKit
import Foundation
import SQLKit

/// The ``LinkPreviewCache`` in the `link_previews` table: one row per URL fetched lately, claimed by inserting it as
/// pending (the insert that adds the row is the one claim that fetches, on any node), settled with what was found.
public struct FluentLinkPreviewCache: LinkPreviewCache {
    private let database: any Database

    public init(database: any Database) {
        self.database = database
    }

    public func claim(_ url: String, at now: Date) async throws -> LinkPreviewClaim {
        let sql = self.database.requiredSQL(by: "FluentLinkPreviewCache")
        let milliseconds = Self.milliseconds(now)
        // What has aged out goes first, for every URL: the table holds only the last few minutes' links.
        try await sql.raw(
            """
            DELETE FROM link_previews WHERE (pending = \(bind: false) AND updated_at < \(bind: milliseconds - Self.milliseconds(Self.freshness))) \
            OR (pending = \(bind: true) AND updated_at < \(bind: milliseconds - Self.milliseconds(Self.pendingLimit)))
            """
        ).run()
        let inserted = try await sql.raw(
            """
            INSERT INTO link_previews (url, pending, preview, updated_at) VALUES (\(bind: url), \(bind: true), NULL, \(bind: milliseconds)) \
            ON CONFLICT DO NOTHING RETURNING url
            """
        ).first()
        if inserted != nil { return .fetch }
        guard
            let row = try await sql.raw(
                "SELECT pending, preview FROM link_previews WHERE url = \(bind: url)"
            ).first()
        else { return .pending }
        if try row.decode(column: "pending", as: Bool.self) { return .pending }
        let preview = try row.decode(column: "preview", as: String?.self).map {
            try JSONDecoder().decode(LinkPreview.self, from: Data($0.utf8))
        }
        return .cached(preview)
    }

    public func settle(_ url: String, preview: LinkPreview?, at now: Date) async throws {
        try await self.database.requiredSQL(by: "FluentLinkPreviewCache").raw(
            """
            UPDATE link_previews SET pending = \(bind: false), preview = \(bind: MessageRecord.previewColumn(preview)), \
            updated_at = \(bind: Self.milliseconds(now)) WHERE url = \(bind: url)
            """
        ).run()
    }

    private static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000
    }
}
