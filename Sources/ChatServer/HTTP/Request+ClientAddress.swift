import Vapor

extension Request {
    /// The client's IP address, the key of per-address limits and what the logs and the audit trail record: the
    /// peer, or behind a proxy the client it names (its PROXY protocol header, or a trusted proxy's
    /// `X-Forwarded-For`: ``ClientAddresses``). From anyone else, `X-Forwarded-For` is ignored (docs/SECURITY.md).
    var clientAddress: String {
        self.application.clientAddresses.client(of: self.remoteAddress, forwardedFor: self.headers[.xForwardedFor])
    }
}

extension Application {
    private struct ClientAddressesKey: StorageKey {
        typealias Value = ClientAddresses
    }

    /// The clients of the HTTP listener; until the server sets them, no proxy is trusted.
    var clientAddresses: ClientAddresses {
        get { self.storage[ClientAddressesKey.self] ?? ClientAddresses(trustedProxies: []) }
        set { self.storage[ClientAddressesKey.self] = newValue }
    }
}
