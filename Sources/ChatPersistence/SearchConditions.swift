import ChatCore
import Foundation
import SQLKit

/// The conditions of a search on a message's columns (alias `m`), the same SQL for both databases.
enum SearchConditions {
    /// ` AND …` for the room, the dates and the attachments the criteria ask for, or nothing.
    static func columns(_ criteria: SearchCriteria) -> SQLQueryString {
        var conditions = SQLQueryString("")
        if let room = criteria.room { conditions += SQLQueryString(" AND m.room = \(bind: room.rawValue)") }
        if let before = criteria.before { conditions += SQLQueryString(" AND m.created_at < \(bind: before)") }
        if let after = criteria.after { conditions += SQLQueryString(" AND m.created_at >= \(bind: after)") }
        if criteria.attachments.contains(.image) {
            conditions += SQLQueryString(
                " AND m.attachments IS NOT NULL AND \(unsafeRaw: Self.count(of: Self.image)) > 0")
        }
        if criteria.attachments.contains(.file) {
            // Some attachment is not an image: more content types than image types.
            conditions += SQLQueryString(
                " AND m.attachments IS NOT NULL AND \(unsafeRaw: Self.count(of: Self.contentType)) > \(unsafeRaw: Self.count(of: Self.image))"
            )
        }
        return conditions
    }

    /// How the `attachments` column (the attachments as JSON, ``MessageRecord``) names a content type, and an
    /// image's (without the `/`, which an encoder may escape).
    private static let contentType = "\"contentType\":\""
    private static let image = "\"contentType\":\"image"

    /// SQL that counts `needle` in the attachments: both databases have `length` and `replace`.
    private static func count(of needle: String) -> String {
        let literal = "'" + needle.replacingOccurrences(of: "'", with: "''") + "'"
        return "((length(m.attachments) - length(replace(m.attachments, \(literal), ''))) / \(needle.count))"
    }
}
