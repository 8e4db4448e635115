import NIOConcurrencyHelpers

/// How clients reach this server (`--public-url`, or `http://HOST:PORT` once the HTTP port is bound): the start of
/// the links the server hands out (attachments for tutorial clients, invitations, password resets).
final class PublicURL: Sendable {
    private let current: NIOLockedValueBox<String>

    init(configured: String) {
        self.current = NIOLockedValueBox(configured)
    }

    var value: String { self.current.withLockedValue { $0 } }

    /// Once the port is bound: the address it is reachable at, unless one was configured.
    func bound(at localURL: String) {
        self.current.withLockedValue { if $0.isEmpty { $0 = localURL } }
    }
}
