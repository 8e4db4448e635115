import NIOCore

/// The monotonic clock the messages' timestamps use, in nanoseconds, and sleeping against it.
enum Monotonic {
    static var now: UInt64 {
        NIODeadline.now().uptimeNanoseconds
    }

    static func sleep(until deadline: UInt64) async throws {
        let now = Self.now
        if deadline > now {
            try await Task.sleep(nanoseconds: deadline - now)
        }
    }

    static func sleep(seconds: Double) async throws {
        try await Task.sleep(nanoseconds: Self.nanoseconds(seconds))
    }

    static func nanoseconds(_ seconds: Double) -> UInt64 {
        UInt64((seconds * 1e9).rounded())
    }

    static func seconds(_ nanoseconds: UInt64) -> Double {
        Double(nanoseconds) / 1e9
    }
}
