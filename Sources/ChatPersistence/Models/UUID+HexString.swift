import Foundation

extension UUID {
    /// Parses the 36-character form (`8-4-4-4-12` hexadecimal digits, either case), as `UUID(uuidString:)` does,
    /// without `sscanf`, which Foundation's parser uses on Linux and which cost microseconds per identifier.
    init?(hexString text: String) {
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var text = text
        let parsed = text.withUTF8 { utf8 in
            withUnsafeMutableBytes(of: &raw) { bytes in Self.parse(utf8, into: bytes) }
        }
        guard parsed else { return nil }
        self.init(uuid: raw)
    }

    private static func parse(_ utf8: UnsafeBufferPointer<UInt8>, into bytes: UnsafeMutableRawBufferPointer) -> Bool {
        guard utf8.count == 36 else { return false }
        var index = 0
        var byte = 0
        while index < 36 {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard utf8[index] == UInt8(ascii: "-") else { return false }
                index += 1
                continue
            }
            guard let high = Self.hexDigit(utf8[index]), let low = Self.hexDigit(utf8[index + 1]) else { return false }
            bytes[byte] = high << 4 | low
            byte += 1
            index += 2
        }
        return true
    }

    private static func hexDigit(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
