/// Hashes and checks passwords (bcrypt on a pool of its own threads, `BcryptPool`). The work is slow on purpose, so
/// the pool is bounded: a full pool throws ``PasswordHasherBusy`` instead of queueing without end.
public protocol PasswordHasher: Sendable {
    func hash(_ password: String) async throws -> String
    func verify(_ password: String, against digest: String) async throws -> Bool
}

/// Every thread of the ``PasswordHasher`` is busy and its queue is full: try again in a second.
public struct PasswordHasherBusy: Error {
    public init() {}
}
