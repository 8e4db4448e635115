import ChatCore
import NIOCore

/// The header a proxy such as HAProxy sends first on each connection it opens to a node (`send-proxy`,
/// `send-proxy-v2`), naming the client it carries: the PROXY protocol, versions 1 (a text line) and 2 (binary),
/// <https://www.haproxy.org/download/2.8/doc/proxy-protocol.txt>. Only the source address is used.
enum ProxyHeader: Equatable {
    /// A whole header, `length` bytes long: the client's address, or `nil` when the proxy speaks for itself (v2
    /// `LOCAL`, as in its health checks, or v1 `UNKNOWN`): the connection's own peer is the client then.
    case header(source: String?, length: Int)
    /// The bytes so far start a header but do not end it.
    case incomplete
    /// Not a header this server accepts, and why.
    case invalid(String)

    /// v2's first twelve bytes, which no text protocol can begin with.
    static let v2Signature: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A]
    /// v1's longest line, CRLF included.
    static let maxV1Bytes = 107
    /// v2's longest header this server waits for: its addresses and TLVs (HAProxy sends a few, far below this).
    static let maxV2Bytes = 16 + 1024

    /// Reads the header at the start of `bytes`.
    static func parse(_ bytes: ByteBufferView) -> ProxyHeader {
        let prefix = Array(bytes.prefix(Self.v2Signature.count))
        if prefix == Array(Self.v2Signature.prefix(prefix.count)) {
            return prefix.count < Self.v2Signature.count ? .incomplete : Self.parseV2(Array(bytes))
        }
        let v1 = Array("PROXY ".utf8)
        guard prefix.starts(with: v1.prefix(prefix.count)) else {
            return .invalid("the connection did not start with a PROXY protocol header")
        }
        return Self.parseV1(bytes)
    }

    /// `PROXY TCP4 203.0.113.7 192.0.2.1 51234 8080\r\n`, `PROXY TCP6 …`, or `PROXY UNKNOWN …\r\n`.
    private static func parseV1(_ bytes: ByteBufferView) -> ProxyHeader {
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
            return bytes.count >= Self.maxV1Bytes ? .invalid("a PROXY v1 line longer than 107 bytes") : .incomplete
        }
        let length = bytes.distance(from: bytes.startIndex, to: newline) + 1
        guard length <= Self.maxV1Bytes, length >= 2, bytes[bytes.index(before: newline)] == UInt8(ascii: "\r") else {
            return .invalid("a PROXY v1 line must end in CRLF within 107 bytes")
        }
        let line = String(decoding: bytes.prefix(length - 2), as: UTF8.self)
        let fields = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        if fields.count >= 2, fields[1] == "UNKNOWN" { return .header(source: nil, length: length) }
        guard fields.count == 6, fields[1] == "TCP4" || fields[1] == "TCP6",
            let address = IPAddressBytes.parse(fields[2]), address.count == (fields[1] == "TCP4" ? 4 : 16),
            IPAddressBytes.parse(fields[3]) != nil, UInt16(fields[4]) != nil, UInt16(fields[5]) != nil
        else {
            return .invalid("a malformed PROXY v1 line")
        }
        return .header(source: IPAddressBytes.text(address), length: length)
    }

    /// The signature, version and command (`0x20` LOCAL, `0x21` PROXY), the family and transport, the length of
    /// what follows, then the addresses (source first) and TLVs.
    private static func parseV2(_ bytes: [UInt8]) -> ProxyHeader {
        guard bytes.count >= 16 else { return .incomplete }
        let versionAndCommand = bytes[12]
        guard versionAndCommand >> 4 == 2, versionAndCommand & 0x0F <= 1 else {
            return .invalid("a PROXY v2 header of an unknown version or command")
        }
        let length = 16 + (Int(bytes[14]) << 8 | Int(bytes[15]))
        guard length <= Self.maxV2Bytes else { return .invalid("a PROXY v2 header longer than 1,040 bytes") }
        guard bytes.count >= length else { return .incomplete }
        guard versionAndCommand & 0x0F == 1 else { return .header(source: nil, length: length) }
        switch bytes[13] >> 4 {
        case 0x1 where length >= 16 + 12:
            return .header(source: IPAddressBytes.text(Array(bytes[16..<20])), length: length)
        case 0x2 where length >= 16 + 36:
            return .header(source: IPAddressBytes.text(Array(bytes[16..<32])), length: length)
        case 0x0, 0x3:
            // Unspecified or a Unix socket: no address of a client to take.
            return .header(source: nil, length: length)
        default:
            return .invalid("a PROXY v2 header whose addresses do not fit it")
        }
    }
}
