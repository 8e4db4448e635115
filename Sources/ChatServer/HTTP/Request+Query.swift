import ChatProtocol
import Vapor

extension Request {
    /// A whole-number query parameter: `nil` when absent, 400 with `code` when present but not a whole number (a
    /// typo must not silently become the default).
    func integerQuery<T: FixedWidthInteger>(_ name: String, code: ErrorCode) throws -> T? {
        guard let raw = self.query[String.self, at: name] else { return nil }
        guard let value = T(raw) else { throw APIError.badRequest(code, "\(name) must be a whole number.") }
        return value
    }
}
