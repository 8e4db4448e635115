/// What a received frame means to the generator, found by scanning its bytes for the run's marker.
///
/// The server's broadcast (`/chat`'s `message`, the modern protocol's `text`) holds the sent text verbatim (it has
/// no characters that need escaping), so a byte search finds it without decoding JSON or allocating.
enum BenchFrame {
    /// A sender's greeting, `bench:<run>:hello`.
    case hello
    /// A timed message, `bench:<run>:<sender>:<sequence>:<sentNanos>:…`.
    case message(sentNanos: UInt64)
    /// The server's answer to a frame it refused: `/chat`'s `{"error": …}`, the modern protocol's
    /// `{…"type":"error"}`.
    case error
    /// The modern protocol's `resumed`: the connection follows a room from now on.
    case resumed
    /// Anything else: history from earlier runs, join and leave announcements.
    case other

    private static let errorPrefix = Array(#"{"error""#.utf8)
    private static let modernError = Array(#""type":"error""#.utf8)
    private static let modernResumed = Array(#""type":"resumed""#.utf8)

    init(_ bytes: UnsafeRawBufferPointer, marker: [UInt8]) {
        guard let start = Self.firstIndex(of: marker, in: bytes) else {
            if Self.hasPrefix(Self.errorPrefix, bytes) || Self.firstIndex(of: Self.modernError, in: bytes) != nil {
                self = .error
            } else {
                self = Self.firstIndex(of: Self.modernResumed, in: bytes) != nil ? .resumed : .other
            }
            return
        }
        var position = start + marker.count
        guard position < bytes.count else {
            self = .other
            return
        }
        if bytes[position] == UInt8(ascii: "h") {
            self = .hello
            return
        }
        // sender, sequence, then the send time; each ends with ":".
        var field: UInt64 = 0
        for _ in 0..<3 {
            guard let (value, next) = Self.decimal(in: bytes, from: position) else {
                self = .other
                return
            }
            field = value
            position = next
        }
        self = .message(sentNanos: field)
    }

    /// Parses digits up to a `:`; returns the number and the index after the colon.
    private static func decimal(in bytes: UnsafeRawBufferPointer, from start: Int) -> (UInt64, Int)? {
        var value: UInt64 = 0
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") {
                return index > start ? (value, index + 1) : nil
            }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
            index += 1
        }
        return nil
    }

    private static func firstIndex(of needle: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        var index = 0
        while index <= bytes.count - needle.count {
            if bytes[index] == first, Self.matches(needle, bytes, at: index) {
                return index
            }
            index += 1
        }
        return nil
    }

    private static func hasPrefix(_ prefix: [UInt8], _ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= prefix.count && Self.matches(prefix, bytes, at: 0)
    }

    private static func matches(_ needle: [UInt8], _ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        for (index, byte) in needle.enumerated() where bytes[offset + index] != byte {
            return false
        }
        return true
    }
}
