import ChatCore
import ChatProtocol
import Foundation

/// My contacts (PROTOCOL.md §6.4): the people I added, and those I share a direct room or a group with; never the
/// whole server, which people search (`GET /users?query=`) is for.
public struct Contacts: Sendable {
    let store: any ContactStore
    let accounts: any AccountStore
    let blocking: Blocking

    /// The most contacts listed.
    public static let limit = 1000

    public init(store: any ContactStore, accounts: any AccountStore, blocking: Blocking) {
        self.store = store
        self.accounts = accounts
        self.blocking = blocking
    }

    /// My contacts, A–Z by username, but for those I blocked.
    public func list(for me: UUID) async throws -> ContactList {
        try await StoreUnavailable.guarding("contacts could not be read") {
            let found = try await self.store.contacts(of: me, limit: Self.limit)
            let added = Set(found.filter(\.added).map(\.id))
            let accounts = try await self.accounts.accounts(ids: found.map(\.id), limit: Self.limit)
            let profiles = try await self.blocking.unblocked(accounts.map(\.profile), for: me)
            return ContactList(
                contacts: profiles.map { ContactPayload(user: $0, added: added.contains($0.id) ? true : nil) })
        }
    }

    /// Adds the account named `username` to my contacts → its entry.
    public func add(_ request: UsernameRequest, for me: Account) async throws -> ContactPayload {
        let account = try await StoreUnavailable.guarding("the contact could not be read") {
            try await self.accounts.account(username: request.username)
        }
        guard let account, account.deactivatedAt == nil else { throw Refusal.unknownUser(request.username) }
        guard account.id != me.id else { throw Refusal.invalid(.invalidPeer, "You are not your own contact.") }
        try await StoreUnavailable.guarding("the contact could not be saved") {
            try await self.store.add(account.id, to: me.id, at: Date())
        }
        return ContactPayload(user: account.profile, added: true)
    }

    /// Removes someone I added; a shared room may keep them among my contacts.
    public func remove(_ id: UUID?, for me: UUID) async throws {
        let removed = try await StoreUnavailable.guarding("the contact could not be removed") {
            guard let id else { return false }
            return try await self.store.remove(id, from: me)
        }
        guard removed else {
            throw Refusal(kind: .notFound, code: .unknownUser, message: "That is no one you added to your contacts.")
        }
    }
}
