/// Byte searches in a received frame: the generator reads what it needs without decoding JSON or allocating.
enum ByteScan {
    /// Where `needle` first occurs at or after `from`.
    static func firstIndex(of needle: [UInt8], in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        var index = from
        while index <= bytes.count - needle.count {
            if bytes[index] == first, Self.matches(needle, bytes, at: index) { return index }
            index += 1
        }
        return nil
    }

    /// Where `needle` last occurs, ending before `before`.
    static func lastIndex(of needle: [UInt8], in bytes: UnsafeRawBufferPointer, before: Int) -> Int? {
        var index = min(before, bytes.count) - needle.count
        while index >= 0 {
            if Self.matches(needle, bytes, at: index) { return index }
            index -= 1
        }
        return nil
    }

    static func hasPrefix(_ prefix: [UInt8], _ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= prefix.count && Self.matches(prefix, bytes, at: 0)
    }

    /// Digits up to a `:`: the number and the index after the colon.
    static func decimal(in bytes: UnsafeRawBufferPointer, from start: Int) -> (UInt64, Int)? {
        var value: UInt64 = 0
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") { return index > start ? (value, index + 1) : nil }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
            index += 1
        }
        return nil
    }

    /// The JSON integer that starts at `start` (digits up to anything else).
    static func integer(at start: Int, in bytes: UnsafeRawBufferPointer) -> Int64? {
        var value: Int64 = 0
        var index = start
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            value = value &* 10 &+ Int64(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        return index > start ? value : nil
    }

    /// The integer right after the first `key` (such as `"latestSeq":`).
    static func integer(after key: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int64? {
        Self.firstIndex(of: key, in: bytes, from: 0).flatMap { Self.integer(at: $0 + key.count, in: bytes) }
    }

    private static func matches(_ needle: [UInt8], _ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        for (index, byte) in needle.enumerated() where bytes[offset + index] != byte {
            return false
        }
        return true
    }
}
