import Foundation

/// A frame that writes its own JSON (through ``JSONBytes``): the frames a server renders by the thousand. The same
/// bytes as `JSONEncoder` with `.sortedKeys` and `.withoutEscapingSlashes`.
public protocol WritesOwnJSON: Encodable {
    func json() -> [UInt8]
}

/// Compact JSON written straight into bytes, for the frames a server renders by the thousand (a message's frame is
/// rendered for every live delivery batch and every replay): `JSONEncoder` builds a tree of boxed values and sorts
/// keys at each object, about 11 µs a message frame (docs/BENCHMARKS.md, "How cost grows with work").
///
/// Strings are escaped as `JSONEncoder` escapes them (`\b`, `\f`, `\n`, `\r`, `\t`, other control characters as
/// `\u00xx`). The caller writes keys in the order `JSONEncoder`'s `.sortedKeys` would, so the bytes are the same.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []
    private var needsComma = false
    /// Whether `/` is written `\/`, as `JSONEncoder` does without `.withoutEscapingSlashes`.
    private let escapingSlashes: Bool

    init(capacity: Int, escapingSlashes: Bool = false) {
        self.bytes.reserveCapacity(capacity)
        self.escapingSlashes = escapingSlashes
    }

    mutating func beginObject() { self.open(UInt8(ascii: "{")) }
    mutating func endObject() { self.close(UInt8(ascii: "}")) }
    mutating func beginArray() { self.open(UInt8(ascii: "[")) }
    mutating func endArray() { self.close(UInt8(ascii: "]")) }

    /// A key; the next call writes its value. Keys are plain ASCII names, written as they are.
    mutating func key(_ name: StaticString) {
        self.separate()
        self.bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { self.bytes.append(contentsOf: $0) }
        self.bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        self.needsComma = false
    }

    mutating func string(_ value: String) {
        self.separate()
        self.bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): self.bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): self.bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "/") where self.escapingSlashes:
                self.bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "/")])
            case 0x0A: self.bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: self.bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: self.bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: self.bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: self.bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x00..<0x20:
                self.bytes.append(contentsOf: Array("\\u00".utf8))
                self.bytes.append(Self.lowerHexDigits[Int(byte >> 4)])
                self.bytes.append(Self.lowerHexDigits[Int(byte & 0x0F)])
            default: self.bytes.append(byte)
            }
        }
        self.bytes.append(UInt8(ascii: "\""))
        self.needsComma = true
    }

    mutating func number(_ value: Int64) {
        self.separate()
        self.bytes.append(contentsOf: String(value).utf8)
        self.needsComma = true
    }

    /// A finite number as `JSONEncoder` writes a `Double`: its shortest exact `description`, without a trailing
    /// `.0` (`700000000.5`, `700000000`). JSON has no infinity or NaN; the caller leaves those out.
    mutating func number(_ value: Double) {
        self.separate()
        let text = value.description
        self.bytes.append(contentsOf: text.utf8.dropLast(text.hasSuffix(".0") ? 2 : 0))
        self.needsComma = true
    }

    mutating func bool(_ value: Bool) {
        self.separate()
        self.bytes.append(contentsOf: value ? Array("true".utf8) : Array("false".utf8))
        self.needsComma = true
    }

    /// A UUID as `JSONEncoder` writes it: its `uuidString`, upper case.
    mutating func uuid(_ value: UUID) {
        self.separate()
        self.bytes.append(UInt8(ascii: "\""))
        withUnsafeBytes(of: value.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { self.bytes.append(UInt8(ascii: "-")) }
                self.bytes.append(Self.hexDigits[Int(byte >> 4)])
                self.bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            }
        }
        self.bytes.append(UInt8(ascii: "\""))
        self.needsComma = true
    }

    /// `"name":value`, or nothing when the value is `nil` (as `encodeIfPresent` leaves a key out).
    mutating func field(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        self.key(name)
        self.string(value)
    }

    mutating func field(_ name: StaticString, _ value: Int64?) {
        guard let value else { return }
        self.key(name)
        self.number(value)
    }

    mutating func field(_ name: StaticString, _ value: Bool?) {
        guard let value else { return }
        self.key(name)
        self.bool(value)
    }

    mutating func field(_ name: StaticString, _ value: UUID) {
        self.key(name)
        self.uuid(value)
    }

    /// `"name":[…]` with each element written by `write`, or nothing when `values` is `nil`.
    mutating func field<Element>(
        _ name: StaticString, _ values: [Element]?, _ write: (Element, inout JSONBytes) -> Void
    ) {
        guard let values else { return }
        self.key(name)
        self.beginArray()
        for value in values { write(value, &self) }
        self.endArray()
    }

    private mutating func open(_ bracket: UInt8) {
        self.separate()
        self.bytes.append(bracket)
        self.needsComma = false
    }

    private mutating func close(_ bracket: UInt8) {
        self.bytes.append(bracket)
        self.needsComma = true
    }

    private mutating func separate() {
        if self.needsComma { self.bytes.append(UInt8(ascii: ",")) }
    }

    /// Upper case, as a `UUID`'s `uuidString`.
    private static let hexDigits = Array("0123456789ABCDEF".utf8)
    /// Lower case, as `JSONEncoder` writes a control character.
    private static let lowerHexDigits = Array("0123456789abcdef".utf8)
}
