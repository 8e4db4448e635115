import Foundation
import SQLKit
import SQLiteNIO

/// How a row's columns are read where many rows are (an event's, by ``MessageRecord/storedMessage(from:)``; the
/// lobby's memberships): through SQLKit's `Decodable` path on any database, or straight from SQLite's values
/// (``SQLiteEventColumns``).
protocol EventColumns {
    func value<Value: EventColumnValue>(_ column: String, as type: Value.Type) throws -> Value
    func valueIfPresent<Value: EventColumnValue>(_ column: String, as type: Value.Type) throws -> Value?
}

/// A type an event's column holds, readable from a `Decodable` row and from an SQLite value.
protocol EventColumnValue: Decodable {
    init?(sqlite: SQLiteData)
}

extension EventColumnValue where Self: SQLiteDataConvertible {
    /// SQLiteNIO's own conversion, the one SQLKit's decoder uses (a `Date` rounded to the microsecond).
    init?(sqlite: SQLiteData) { self.init(sqliteData: sqlite) }
}

extension String: EventColumnValue {}
extension Int64: EventColumnValue {}
extension Bool: EventColumnValue {}
extension Date: EventColumnValue {}

extension UUID: EventColumnValue {
    /// Written as text by Fluent; parsed by ``init(hexString:)`` instead of Foundation's parser, which goes through
    /// `sscanf` and was 7 % of the server's time when it replays a thousand messages (BENCHMARKS.md).
    init?(sqlite: SQLiteData) {
        switch sqlite {
        case .text(let text): self.init(hexString: text)
        case .blob(let bytes) where bytes.readableBytes == 16:
            guard let data = bytes.getBytes(at: bytes.readerIndex, length: 16) else { return nil }
            self.init(
                uuid: (
                    data[0], data[1], data[2], data[3], data[4], data[5], data[6], data[7],
                    data[8], data[9], data[10], data[11], data[12], data[13], data[14], data[15]
                ))
        default: return nil
        }
    }
}

/// Any SQL row, through SQLKit's decoder (PostgreSQL's rows, and SQLite's where speed does not matter).
struct DecodedEventColumns: EventColumns {
    let row: any SQLRow

    func value<Value: EventColumnValue>(_ column: String, as type: Value.Type) throws -> Value {
        try self.row.decode(column: column, as: Value.self)
    }

    func valueIfPresent<Value: EventColumnValue>(_ column: String, as type: Value.Type) throws -> Value? {
        try self.row.decode(column: column, as: Value?.self)
    }
}

/// An SQLite row's values converted directly: SQLKit's decoder goes through `Decodable` for every optional column
/// (a decoder object each time) and Foundation's `sscanf` for every UUID, which together cost as much as SQLite's
/// own reading when a resume reads a thousand events (BENCHMARKS.md, "How cost grows with work").
struct SQLiteEventColumns: EventColumns {
    let row: SQLiteRow

    func value<Value: EventColumnValue>(_ column: String, as type: Value.Type) throws -> Value {
        let raw = try self.raw(column)
        guard let value = Value(sqlite: raw) else { throw Self.mismatch(column, Value.self, raw) }
        return value
    }

    func valueIfPresent<Value: EventColumnValue>(_ column: String, as type: Value.Type) throws -> Value? {
        let raw = try self.raw(column)
        if raw == .null { return nil }
        guard let value = Value(sqlite: raw) else { throw Self.mismatch(column, Value.self, raw) }
        return value
    }

    /// The column's value as SQLite holds it.
    private func raw(_ column: String) throws -> SQLiteData {
        guard let data = self.row.column(column) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no column \(column)"))
        }
        return data
    }

    private static func mismatch(_ column: String, _ type: Any.Type, _ raw: SQLiteData) -> DecodingError {
        .typeMismatch(type, .init(codingPath: [], debugDescription: "column \(column) holds \(raw)"))
    }
}
