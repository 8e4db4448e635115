import ChatCore
import ChatProtocol
import Foundation

/// Blocking (PROTOCOL.md §10.7): an account I block can no longer open or write to our direct room (it leaves the
/// room, whose history stays mine) and is left out of my people search; unblocking lets it back in.
public struct Blocking: Sendable {
    let blocks: any BlockStore
    let accounts: any AccountStore
    let directory: any RoomDirectory
    let hub: Hub
    let sessions: any LiveSessions

    public init(
        blocks: any BlockStore, accounts: any AccountStore, directory: any RoomDirectory, hub: Hub,
        sessions: any LiveSessions
    ) {
        self.blocks = blocks
        self.accounts = accounts
        self.directory = directory
        self.hub = hub
        self.sessions = sessions
    }

    /// Blocks the account `id`; blocking it again changes nothing.
    public func block(_ id: UUID?, by me: Account) async throws {
        let other = try await self.other(id, of: me)
        try await StoreUnavailable.guarding("the block could not be saved") {
            _ = try await self.blocks.block(other.id, by: me.id)
            guard let direct = try await self.directory.existingDirectRoom(between: me.id, and: other.id),
                try await self.directory.isMember(other.id, of: direct.id)
            else { return }
            try await self.directory.remove(other.id, from: direct.id)
            try await self.hub.room(direct.id).evict(other.id)
            await self.sessions.left(other.id, room: direct.id)
        }
    }

    /// Unblocks the account `id`: it is back in our direct room, with everything in it counted as read.
    public func unblock(_ id: UUID?, by me: Account) async throws {
        let other = try await self.other(id, of: me)
        try await StoreUnavailable.guarding("the block could not be removed") {
            guard try await self.blocks.unblock(other.id, by: me.id),
                try await !self.blocks.isBlocked(me.id, by: other.id),
                let direct = try await self.directory.existingDirectRoom(between: me.id, and: other.id)
            else { return }
            try await self.directory.add(other.id, to: direct.id)
            _ = try await self.directory.markRead(
                other.id, in: direct.id, upTo: try await self.hub.store.lastSequence(in: direct.id))
            await self.sessions.joined([other.id], room: direct.id)
        }
    }

    /// The profiles of the accounts I blocked.
    public func blocked(by me: Account) async throws -> [UserProfile] {
        try await StoreUnavailable.guarding("the blocks could not be read") {
            let ids = try await self.blocks.blocked(by: me.id)
            return try await self.accounts.accounts(ids: ids, limit: max(ids.count, 1)).map(\.profile)
        }
    }

    /// Refuses `user` a direct room with `peer` when `peer` blocked it.
    public func requireNotBlocked(_ user: UUID, by peer: UUID) async throws {
        let blocked = try await StoreUnavailable.guarding("the blocks could not be read") {
            try await self.blocks.isBlocked(user, by: peer)
        }
        guard !blocked else {
            throw Refusal(kind: .notAllowed, code: .blocked, message: "This person does not take your messages.")
        }
    }

    /// Of people found, those I did not block.
    func unblocked(_ people: [UserProfile], for me: UUID) async throws -> [UserProfile] {
        let blocked = Set(try await self.blocks.blocked(by: me))
        return people.filter { !blocked.contains($0.id) }
    }

    private func other(_ id: UUID?, of me: Account) async throws -> Account {
        guard let id,
            let account = try await StoreUnavailable.guarding(
                "the account could not be read",
                {
                    try await self.accounts.account(id: id)
                })
        else { throw Refusal(kind: .notFound, code: .unknownUser, message: "No such user.") }
        guard account.id != me.id else { throw Refusal.invalid(.invalidPeer, "You cannot block yourself.") }
        return account
    }
}
