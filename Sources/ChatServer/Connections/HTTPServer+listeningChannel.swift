import NIOCore
import Vapor

extension HTTPServer {
    /// The channel Vapor's HTTP server listens on.
    ///
    /// Vapor offers no hook into the pipeline of accepted connections, and SwiftChat needs one to count and refuse
    /// connections before they send a request (``ConnectionGate``). Vapor keeps the listening channel in a private
    /// property, so it is read by reflection: `connection` (a lock box) → its storage's `header` → the optional
    /// connection → `channel`. Should a Vapor release rename any of these, this returns `nil` and the server
    /// refuses to start (`ChatServiceError.connectionLimitsUnavailable`) instead of running without limits; every
    /// integration test starts a server, so a Vapor update that breaks this fails the whole suite at once.
    var listeningChannel: (any Channel)? {
        var value: Any = self
        for name in ["connection", "_storage", "header", "some", "channel"] {
            guard let child = Self.storedProperty(name, of: value) else { return nil }
            value = child
        }
        return value as? any Channel
    }

    /// A stored property by name, looked up in the class and its superclasses (a lock's storage keeps its value in
    /// `ManagedBuffer.header`).
    private static func storedProperty(_ name: String, of value: Any) -> Any? {
        var mirror: Mirror? = Mirror(reflecting: value)
        while let current = mirror {
            if let child = current.children.first(where: { $0.label == name }) { return child.value }
            mirror = current.superclassMirror
        }
        return nil
    }
}
