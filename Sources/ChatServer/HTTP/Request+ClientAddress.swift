import Vapor

extension Request {
    /// The peer's IP address, the key of per-address limits. `X-Forwarded-For` is not trusted: behind a proxy,
    /// every client shares the proxy's address (docs/SECURITY.md).
    var clientAddress: String {
        self.remoteAddress?.ipAddress ?? "unknown"
    }
}
