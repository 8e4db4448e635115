/// Reads a JSON object whose values are all strings, numbers, `true`, `false` or `null`, as a `/chat` client sends
/// it, straight from its UTF-8 bytes (``LobbyChatFields``).
///
/// It reads only what it is sure of: for anything else (a nested object or array, a key seen twice, more than
/// ``maxKeys`` keys, a `\u` escape of a surrogate, text that is not valid JSON) it returns `nil` and leaves the
/// frame to `JSONDecoder`.
struct FlatJSONObjectReader {
    /// Past this many keys the frame goes to `JSONDecoder` (the check for repeated keys is quadratic).
    static let maxKeys = 8

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The three fields, or `nil` when the frame is not a flat object this reader is sure of.
    static func fields(of text: String) -> LobbyChatFields? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = FlatJSONObjectReader(bytes: bytes)
            return reader.object()
        }
    }

    private enum Value {
        case string(String)
        case other
    }

    private mutating func object() -> LobbyChatFields? {
        self.skipWhitespace()
        guard self.take(UInt8(ascii: "{")) else { return nil }
        var fields = LobbyChatFields()
        var keys: [String] = []
        self.skipWhitespace()
        if !self.take(UInt8(ascii: "}")) {
            repeat {
                self.skipWhitespace()
                guard let key = self.string(), keys.count < Self.maxKeys, !keys.contains(key) else { return nil }
                keys.append(key)
                self.skipWhitespace()
                guard self.take(UInt8(ascii: ":")) else { return nil }
                self.skipWhitespace()
                guard let value = self.value() else { return nil }
                if case .string(let string) = value {
                    switch key {
                    case "message": fields.message = string
                    case "user": fields.user = string
                    case "userID": fields.userID = string
                    default: break
                    }
                }
                self.skipWhitespace()
            } while self.take(UInt8(ascii: ","))
            guard self.take(UInt8(ascii: "}")) else { return nil }
        }
        self.skipWhitespace()
        return self.index == self.bytes.count ? fields : nil
    }

    private mutating func value() -> Value? {
        guard let first = self.peek() else { return nil }
        switch first {
        case UInt8(ascii: "\""): return self.string().map(Value.string)
        case UInt8(ascii: "t"): return self.literal("true") ? .other : nil
        case UInt8(ascii: "f"): return self.literal("false") ? .other : nil
        case UInt8(ascii: "n"): return self.literal("null") ? .other : nil
        default: return self.number() ? .other : nil
        }
    }

    /// A string with its escapes resolved; the index is past its closing quote.
    private mutating func string() -> String? {
        guard self.take(UInt8(ascii: "\"")) else { return nil }
        let start = self.index
        // Most strings have no escape: they are the bytes between the quotes.
        while let byte = self.peek(), byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { return nil }
            self.index += 1
        }
        guard let stop = self.peek() else { return nil }
        let plain = UnsafeBufferPointer(rebasing: self.bytes[start..<self.index])
        if stop == UInt8(ascii: "\"") {
            self.index += 1
            return String(decoding: plain, as: UTF8.self)
        }
        var unescaped = Array(plain)
        while let byte = self.peek(), byte != UInt8(ascii: "\"") {
            self.index += 1
            if byte == UInt8(ascii: "\\") {
                guard self.escape(into: &unescaped) else { return nil }
            } else {
                guard byte >= 0x20 else { return nil }
                unescaped.append(byte)
            }
        }
        guard self.take(UInt8(ascii: "\"")) else { return nil }
        return String(decoding: unescaped, as: UTF8.self)
    }

    /// The character after a backslash, appended as UTF-8; `false` for an escape JSON does not have, and for a
    /// `\u` escape of a surrogate (`JSONDecoder` pairs them).
    private mutating func escape(into unescaped: inout [UInt8]) -> Bool {
        guard let byte = self.peek() else { return false }
        self.index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped.append(byte)
        case UInt8(ascii: "b"): unescaped.append(0x08)
        case UInt8(ascii: "f"): unescaped.append(0x0C)
        case UInt8(ascii: "n"): unescaped.append(0x0A)
        case UInt8(ascii: "r"): unescaped.append(0x0D)
        case UInt8(ascii: "t"): unescaped.append(0x09)
        case UInt8(ascii: "u"):
            var code: UInt32 = 0
            for _ in 0..<4 {
                guard let digit = self.peek().flatMap(Self.hexValue) else { return false }
                code = code << 4 | digit
                self.index += 1
            }
            guard let scalar = Unicode.Scalar(code) else { return false }
            unescaped.append(contentsOf: String(scalar).utf8)
        default: return false
        }
        return true
    }

    /// A number as JSON writes it: `-`, an integer part without leading zeros, a fraction, an exponent.
    private mutating func number() -> Bool {
        _ = self.take(UInt8(ascii: "-"))
        if self.take(UInt8(ascii: "0")) {
            // no more digits in the integer part
        } else {
            guard self.digits() else { return false }
        }
        if self.take(UInt8(ascii: ".")) {
            guard self.digits() else { return false }
        }
        if self.take(UInt8(ascii: "e")) || self.take(UInt8(ascii: "E")) {
            if !self.take(UInt8(ascii: "+")) { _ = self.take(UInt8(ascii: "-")) }
            guard self.digits() else { return false }
        }
        return true
    }

    /// One digit or more.
    private mutating func digits() -> Bool {
        let start = self.index
        while let byte = self.peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { self.index += 1 }
        return self.index > start
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard self.bytes.count - self.index >= count,
            word.withUTF8Buffer({ $0.elementsEqual(self.bytes[self.index..<self.index + count]) })
        else { return false }
        self.index += count
        return true
    }

    private mutating func skipWhitespace() {
        while let byte = self.peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { self.index += 1 }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard self.peek() == byte else { return false }
        self.index += 1
        return true
    }

    private func peek() -> UInt8? {
        self.index < self.bytes.count ? self.bytes[self.index] : nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
