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
    static let modernError = Array(#""type":"error""#.utf8)
    static let modernResumed = Array(#""type":"resumed""#.utf8)

    init(_ bytes: UnsafeRawBufferPointer, marker: [UInt8]) {
        guard let start = ByteScan.firstIndex(of: marker, in: bytes, from: 0) else {
            if ByteScan.hasPrefix(Self.errorPrefix, bytes)
                || ByteScan.firstIndex(of: Self.modernError, in: bytes, from: 0) != nil
            {
                self = .error
            } else {
                self = ByteScan.firstIndex(of: Self.modernResumed, in: bytes, from: 0) != nil ? .resumed : .other
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
            guard let (value, next) = ByteScan.decimal(in: bytes, from: position) else {
                self = .other
                return
            }
            field = value
            position = next
        }
        self = .message(sentNanos: field)
    }
}
