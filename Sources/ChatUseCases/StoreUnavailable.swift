/// A store failed (the database could not be read or written): the same request may succeed in a moment. It is the
/// one failure of a use case that is not the caller's; every transport answers it `unavailable` (HTTP 503 with
/// `Retry-After`, an error frame) and logs ``what`` with the store's error (PROTOCOL.md §6.1).
public struct StoreUnavailable: Error, CustomStringConvertible {
    /// What could not be done, for the log: "membership could not be checked".
    public let what: String
    public let underlying: any Error

    public init(_ what: String, underlying: any Error) {
        self.what = what
        self.underlying = underlying
    }

    public var description: String { "\(self.what): \(String(reflecting: self.underlying))" }

    /// Runs the store calls of a use case. A refusal (``Refusal``, ``RoomAccessDenied/forbidden``, or a
    /// ``StoreUnavailable`` already named) and a cancellation pass as they are; anything else the work throws
    /// came from a store, and becomes a ``StoreUnavailable`` saying `what` could not be done.
    public static func guarding<Value>(
        _ what: @autoclosure () -> String, _ work: () async throws -> Value
    ) async throws -> Value {
        do {
            return try await work()
        } catch let error as Refusal {
            throw error
        } catch let error as StoreUnavailable {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch RoomAccessDenied.forbidden {
            throw RoomAccessDenied.forbidden
        } catch RoomAccessDenied.muted {
            throw RoomAccessDenied.muted
        } catch RoomAccessDenied.unavailable(let error) {
            throw StoreUnavailable(RoomAccessDenied.unavailableMessage, underlying: error)
        } catch {
            throw StoreUnavailable(what(), underlying: error)
        }
    }
}
