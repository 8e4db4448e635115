import Foundation

/// The people an account added to its contacts by hand (PROTOCOL.md §6.4); the people it shares a direct room or a
/// group with are its contacts without that.
public protocol ContactStore: Sendable {
    /// Adds `contact` to `owner`'s contacts; adding one again changes nothing.
    func add(_ contact: UUID, to owner: UUID, at date: Date) async throws
    /// Removes `contact` from `owner`'s added contacts; `false` when it was not one.
    func remove(_ contact: UUID, from owner: UUID) async throws -> Bool
    /// `owner`'s contacts, at most `limit`: the ids of the people it added (`added`) or shares a direct room or a
    /// group with, active accounts only, `owner` excluded.
    func contacts(of owner: UUID, limit: Int) async throws -> [(id: UUID, added: Bool)]
}
