import ChatCore
import ChatProtocol
import Foundation

/// What a channel's or group's moderators, its owner and the server's administrators do to its members
/// (PROTOCOL.md §7.3): remove, ban, mute, and give roles. Removals, bans and roles are events of the room's sequence
/// (`removed`, `banned`, `role`), committed with the membership change they announce; mutes and unbans change no one's
/// membership and are kept apart (``RoomRestriction``). Every change is in the audit log.
///
/// Who may do what is one rule: everyone has a rank in a room (member, moderator, owner, and above every owner an
/// administrator), moderating needs a moderator's rank at least, and nobody moderates someone of their own rank or
/// higher. Nobody moderates a direct room.
public struct RoomModeration: Sendable {
    let directory: any RoomDirectory
    let accounts: any AccountStore
    let hub: Hub
    let sessions: any LiveSessions
    let audit: any AuditLog
    let messages: any MessageStore
    /// Commits a removal of a message and logs it, once allowed.
    let removal: Moderation

    public init(
        directory: any RoomDirectory, accounts: any AccountStore, messages: any MessageStore, hub: Hub,
        sessions: any LiveSessions, audit: any AuditLog
    ) {
        self.directory = directory
        self.accounts = accounts
        self.messages = messages
        self.hub = hub
        self.sessions = sessions
        self.audit = audit
        self.removal = Moderation(directory: directory, hub: hub, audit: audit)
    }

    /// Someone's place in a room, for who may moderate whom.
    enum Rank: Int, Comparable {
        case member
        case moderator
        case owner
        case administrator

        init(_ role: RoomRole) {
            switch role {
            case .member: self = .member
            case .moderator: self = .moderator
            case .owner: self = .owner
            }
        }

        static func < (lhs: Rank, rhs: Rank) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// A room being moderated, and the actor's rank in it.
    struct Scene {
        let room: RoomInfo
        let actor: Account
        let rank: Rank

        var sender: Sender { self.actor.sender }
    }

    /// `DELETE /rooms/{id}/members/{user}`: the member leaves the room at once, on every node.
    public func remove(_ user: UUID, from id: RoomID, by actor: Account, from address: String) async throws {
        try await StoreUnavailable.guarding("the member could not be removed") {
            let scene = try await self.scene(id, by: actor)
            let target = try await self.target(user, in: scene, mustBeMember: true)
            try await self.commit(.removed(target.sender), in: scene)
            try await self.hub.room(scene.room.id).evict(target.id)
            await self.sessions.left(target.id, room: scene.room.id)
            try await self.record("remove-member", target, in: scene, from: address)
        }
    }

    /// `PUT /rooms/{id}/bans/{user}`: removed if a member, and cannot join or be invited until unbanned. Banning
    /// again changes nothing.
    public func ban(_ user: UUID, in id: RoomID, by actor: Account, from address: String) async throws {
        try await StoreUnavailable.guarding("the ban could not be saved") {
            let scene = try await self.scene(id, by: actor)
            let target = try await self.target(user, in: scene, mustBeMember: false)
            guard try await !self.directory.isRestricted(target.id, in: scene.room.id, .ban) else { return }
            if try await self.directory.isMember(target.id, of: scene.room.id) {
                // The event removes the member and stores the ban in one transaction.
                try await self.commit(.banned(target.sender), in: scene)
                try await self.hub.room(scene.room.id).evict(target.id)
                await self.sessions.left(target.id, room: scene.room.id)
            } else {
                try await self.directory.restrict(target.id, in: scene.room.id, .ban, by: actor.id)
            }
            try await self.record("ban", target, in: scene, from: address)
        }
    }

    /// `PUT` or `DELETE /rooms/{id}/mutes/{user}`: a muted member reads and sends nothing; leaving and joining again
    /// does not lift it. Muting a member muted already changes nothing.
    public func mute(_ user: UUID, _ muted: Bool, in id: RoomID, by actor: Account, from address: String)
        async throws
    {
        try await StoreUnavailable.guarding("the mute could not be saved") {
            let scene = try await self.scene(id, by: actor)
            let target = try await self.target(user, in: scene, mustBeMember: muted)
            if muted {
                guard try await !self.directory.isRestricted(target.id, in: scene.room.id, .mute) else { return }
                try await self.directory.restrict(target.id, in: scene.room.id, .mute, by: actor.id)
            } else {
                guard try await self.directory.lift(.mute, of: target.id, in: scene.room.id) else { return }
            }
            try await self.record(muted ? "mute" : "unmute", target, in: scene, from: address)
        }
    }

    /// `DELETE /rooms/{id}/bans/{user}`: they may join or be invited again (they do not come back by themselves).
    public func unban(_ user: UUID, in id: RoomID, by actor: Account, from address: String) async throws {
        try await StoreUnavailable.guarding("the ban could not be lifted") {
            let scene = try await self.scene(id, by: actor)
            let target = try await self.account(user)
            guard try await self.directory.lift(.ban, of: target.id, in: scene.room.id) else { return }
            try await self.record("unban", target, in: scene, from: address)
        }
    }

    /// `GET /rooms/{id}/bans`: the profiles of everyone banned from the room, for its moderators.
    public func bans(in id: RoomID, for actor: Account) async throws -> [UserProfile] {
        try await StoreUnavailable.guarding("the bans could not be read") {
            let scene = try await self.scene(id, by: actor)
            let ids = try await self.directory.restricted(in: scene.room.id, .ban)
            return try await self.accounts.accounts(ids: ids, limit: ids.count).map(\.profile)
        }
    }

    /// `PUT /rooms/{id}/members/{user}/role`: the owner (or an administrator) names moderators, makes them members
    /// again, or hands the room to another member, who becomes its one owner (the previous one a moderator). The
    /// role a member has already stores nothing.
    public func setRole(_ rawRole: String, of user: UUID, in id: RoomID, by actor: Account, from address: String)
        async throws
    {
        guard let role = RoomRole(rawValue: rawRole) else {
            throw Refusal.invalid(.invalidRole, "A role is \"member\", \"moderator\" or \"owner\".")
        }
        try await StoreUnavailable.guarding("the role could not be changed") {
            let scene = try await self.scene(id, by: actor, needing: .owner)
            guard !(scene.room.id == .lobby && role == .owner) else {
                throw Refusal.invalid(.invalidRole, "The lobby's owners are the server's administrators.")
            }
            let target = try await self.target(user, in: scene, mustBeMember: true)
            let standing = try await self.directory.standing(of: target.id, in: scene.room.id)
            guard standing?.role != role else { return }
            try await self.commit(.role(role, of: target.sender), in: scene)
            try await self.record("role", target, in: scene, from: address, detail: "\(target.username): \(role)")
        }
    }

    /// `DELETE /rooms/{id}/messages/{seq}`: a moderator deletes a message of someone of a lower rank (or their
    /// own; a tutorial client's has no rank). Members see a `delete` event whose sender is the moderator. Returns
    /// `false` when the audit log's entry could not be written (the removal stands: the caller logs it).
    public func removeMessage(_ seq: Int64, in id: RoomID, by actor: Account, from address: String) async throws
        -> Bool
    {
        try await StoreUnavailable.guarding("the message could not be removed") {
            let scene = try await self.scene(id, by: actor)
            guard let message = try await self.messages.message(in: scene.room.id, seq: seq),
                message.kind == .message, !message.deleted
            else {
                throw Refusal.invalid(.badTarget, "No message \(seq) in this room, or it is deleted already.")
            }
            let author = message.sender
            if author.via == nil, author.id != actor.id, let account = try await self.accounts.account(id: author.id) {
                guard try await self.rank(of: account, in: scene.room.id) < scene.rank else { throw Self.higherRank }
            }
            return try await self.removal.removeMessage(
                seq, in: scene.room.id, by: .account(actor, from: address))
        }
    }

    /// `DELETE /admin/rooms/{id}`: an administrator deletes a room with everything said in it (the lobby stays);
    /// its members' connections receive `left` at once, on every node.
    public func deleteRoom(_ id: RoomID, by actor: Account, from address: String) async throws {
        guard actor.isAdministrator else { throw Administration.notAdministrator }
        guard id != .lobby else {
            throw Refusal(kind: .notAllowed, code: .notAllowed, message: "The lobby cannot be deleted.")
        }
        try await StoreUnavailable.guarding("the room could not be deleted") {
            guard let room = try await self.directory.room(id) else { throw Self.unknownRoom }
            let members = try await self.directory.members(of: room.id)
            try await self.directory.deleteRoom(room.id)
            let hubRoom = try await self.hub.room(room.id)
            for member in members {
                try await hubRoom.evict(member)
                await self.sessions.left(member, room: room.id)
            }
            try await self.audit.record(
                AuditEntry(
                    actor: actor.id, actorName: actor.username, action: "delete-room", target: room.id.rawValue,
                    detail: room.name, address: address, date: Date()))
        }
    }

    /// The room, once `actor` has at least `least` rank in it. A room that does not exist and one the actor is not
    /// in answer alike (`forbidden`), as everywhere, unless the actor is an administrator.
    func scene(_ id: RoomID, by actor: Account, needing least: Rank = .moderator) async throws -> Scene {
        guard let room = try await self.directory.room(id) else {
            throw actor.isAdministrator ? Self.unknownRoom : RoomAccessDenied.forbidden
        }
        let standing = try await self.directory.standing(of: actor.id, in: id)
        guard standing != nil || actor.isAdministrator else { throw RoomAccessDenied.forbidden }
        guard room.kind != .direct else {
            throw Refusal.invalid(.cannotModerate, "Nobody moderates a direct room.")
        }
        let rank = actor.isAdministrator ? .administrator : Rank(standing?.role ?? .member)
        guard rank >= least else {
            throw Refusal(
                kind: .notAllowed, code: .notAllowed,
                message: least == .owner
                    ? "Only the room's owner or an administrator may do that."
                    : "Only the room's moderators, its owner or an administrator may do that.")
        }
        return Scene(room: room, actor: actor, rank: rank)
    }

    /// The account `user`, of a lower rank than the actor; when `mustBeMember`, a member of the room.
    private func target(_ user: UUID, in scene: Scene, mustBeMember: Bool) async throws -> Account {
        let target = try await self.account(user)
        if mustBeMember, try await !self.directory.isMember(target.id, of: scene.room.id) {
            throw Self.notMember(target)
        }
        guard try await self.rank(of: target, in: scene.room.id) < scene.rank else { throw Self.higherRank }
        return target
    }

    /// An administrator's rank anywhere; a member's role; someone not in the room is as a member.
    private func rank(of account: Account, in room: RoomID) async throws -> Rank {
        if account.isAdministrator { return .administrator }
        return Rank(try await self.directory.standing(of: account.id, in: room)?.role ?? .member)
    }

    private func account(_ id: UUID) async throws -> Account {
        guard let account = try await self.accounts.account(id: id) else {
            throw Refusal(kind: .notFound, code: .unknownUser, message: "No such user.")
        }
        return account
    }

    private func commit(_ change: MembershipChange, in scene: Scene) async throws {
        let draft = MessageDraft(sender: scene.sender, body: .membership(change))
        _ = try await self.hub.room(scene.room.id).commit(draft)
    }

    private func record(
        _ action: String, _ target: Account, in scene: Scene, from address: String, detail: String? = nil
    ) async throws {
        try await self.audit.record(
            AuditEntry(
                actor: scene.actor.id, actorName: scene.actor.username, action: action,
                target: "\(scene.room.id.rawValue)/\(target.id.uuidString)", detail: detail ?? target.username,
                address: address, date: Date()))
    }

    static let unknownRoom = Refusal(kind: .notFound, code: .notFound, message: "No such room.")
    static let higherRank = Refusal(
        kind: .notAllowed, code: .notAllowed, message: "Nobody moderates someone of their own role or higher.")

    static func notMember(_ account: Account) -> Refusal {
        Refusal(kind: .notFound, code: .notFound, message: "\(account.username) is not a member of this room.")
    }
}
