#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The bytes libFuzzer hands to one run, read from the front: a target takes a few bytes of settings (a limit, a
/// chunk size) and treats the rest as what arrives from the network.
public struct FuzzInput {
    public private(set) var bytes: ArraySlice<UInt8>

    public init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        self.bytes = ArraySlice(UnsafeBufferPointer(start: data, count: size))
    }

    /// The next byte, or 0 when none is left.
    public mutating func takeByte() -> UInt8 {
        self.bytes.popFirst() ?? 0
    }

    /// Everything after the last byte taken.
    public var rest: [UInt8] { Array(self.bytes) }

    /// The rest as a `String`, or `nil` when it is not UTF-8 (a WebSocket text frame or a checked TCP line).
    public var restAsText: String? {
        String(validating: self.bytes, as: UTF8.self)
    }
}

/// Splits `bytes` into pieces of `size` bytes (the last one shorter), as a socket might deliver them; one piece
/// when `size` is 0.
public func pieces(of bytes: [UInt8], size: Int) -> [ArraySlice<UInt8>] {
    guard size > 0, bytes.count > size else { return [bytes[...]] }
    return stride(from: 0, to: bytes.count, by: size).map { bytes[$0..<min($0 + size, bytes.count)] }
}

/// Stops the run when a decoder's invariant does not hold: libFuzzer reports it as a crash and saves the input.
public func invariant(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
    line: UInt = #line
) {
    if !condition() { fatalError("invariant broken: \(message())", file: file, line: line) }
}

/// Whether targets skip the inputs of crashes already reported and not yet fixed (each such guard names its file
/// under Fuzz/Regressions/). `FUZZ_KNOWN_ISSUES=expose` turns the guards off, to check whether a fix holds.
public let guardsKnownIssues = getenv("FUZZ_KNOWN_ISSUES").map { String(cString: $0) } != "expose"
