import ChatCore
import ChatProtocol
import Foundation

/// Who is in which room: creating channels and groups, joining, leaving, inviting, and direct rooms. Every change
/// reaches the open connections of the people it concerns at once (``LiveSessions``, PROTOCOL.md §9.6).
///
/// Refusals are ``Refusal``s and ``RoomAccessDenied``; a database failure is ``StoreUnavailable``.
public struct RoomMembership: Sendable {
    public let directory: any RoomDirectory
    public let accounts: any AccountStore
    public let hub: Hub
    public let sessions: any LiveSessions
    /// Who may not open a direct room with whom.
    public let blocking: Blocking

    /// New groups and channels per account: 10 at once, then one a minute.
    private let creationLimiter: AttemptLimiter

    public init(
        directory: any RoomDirectory, accounts: any AccountStore, hub: Hub, sessions: any LiveSessions,
        blocking: Blocking, time: any TimeSource
    ) {
        self.directory = directory
        self.accounts = accounts
        self.hub = hub
        self.sessions = sessions
        self.blocking = blocking
        self.creationLimiter = AttemptLimiter(time: time, burst: 10, refill: .seconds(60))
    }

    private var access: RoomAccess { RoomAccess(directory: self.directory) }

    /// A new channel or group named `name`; `creator` and the accounts named in `members` are its members.
    public func create(kind rawKind: String, name rawName: String, members: [String], by creator: UUID) async throws
        -> RoomInfo
    {
        guard let kind = RoomKind(rawValue: rawKind), kind != .direct else {
            throw Refusal.invalid(
                .invalidKind, "A room is a \"channel\" or a \"group\"; direct rooms come from POST /dms.")
        }
        let name = try Self.roomName(rawName)
        if let wait = self.creationLimiter.attempt([creator.uuidString]) {
            throw Refusal.rateLimited(.roomCreation, "You created many rooms lately; try again in", wait)
        }
        return try await StoreUnavailable.guarding("the room could not be created") {
            var memberIDs = [creator]
            for username in members {
                memberIDs.append(try await self.account(named: username).id)
            }
            let room = RoomInfo(id: RoomID(UUID().uuidString), kind: kind, name: name, createdBy: creator)
            try await self.directory.create(room, members: memberIDs)
            await self.sessions.joined(memberIDs, room: room.id)
            return room
        }
    }

    /// Joins a channel; any other room (or none) is ``RoomAccessDenied/forbidden``, so nothing leaks. The join is a
    /// `joined` event of the room, which adds the membership as it commits (PROTOCOL.md §9.1); joining a channel I am
    /// in already stores nothing.
    public func join(_ id: RoomID, user: Sender) async throws -> RoomInfo {
        try await StoreUnavailable.guarding("the channel could not be joined") {
            guard let room = try await self.directory.room(id), room.kind == .channel else {
                throw RoomAccessDenied.forbidden
            }
            guard try await !self.directory.isMember(user.id, of: room.id) else { return room }
            guard try await !self.directory.isRestricted(user.id, in: room.id, .ban) else {
                throw Refusal(kind: .notAllowed, code: .banned, message: "You are banned from this channel.")
            }
            _ = try await self.hub.room(room.id).commit(
                MessageDraft(sender: user, body: .membership(.joined(user))))
            await self.sessions.joined([user.id], room: room.id)
            return room
        }
    }

    /// Leaves a room: the user's open connections stop receiving it at once. Leaving a channel or group is a `left`
    /// event of the room; a direct room has no such events (it always has its two members, §7).
    public func leave(_ id: RoomID, user: Sender) async throws {
        try await StoreUnavailable.guarding("the room could not be left") {
            let room = try await self.access.room(id, for: user.id)
            if room.kind == .direct {
                try await self.directory.remove(user.id, from: room.id)
            } else {
                _ = try await self.hub.room(room.id).commit(
                    MessageDraft(sender: user, body: .membership(.left(user))))
            }
            try await self.hub.room(room.id).evict(user.id)
            await self.sessions.left(user.id, room: room.id)
        }
    }

    /// A member of a channel or group adds the account called `username`: an `invited` event of the room, which
    /// adds the membership as it commits. Someone banned from the room cannot be added; adding a member stores
    /// nothing.
    public func invite(_ username: String, to id: RoomID, by member: Sender) async throws {
        try await StoreUnavailable.guarding("the invitation could not be saved") {
            let room = try await self.access.room(id, for: member.id)
            guard room.kind != .direct else {
                throw Refusal.invalid(.cannotInvite, "A direct room always has exactly two members.")
            }
            let invitee = try await self.account(named: username)
            guard try await !self.directory.isMember(invitee.id, of: room.id) else { return }
            guard try await !self.directory.isRestricted(invitee.id, in: room.id, .ban) else {
                throw Refusal(
                    kind: .notAllowed, code: .banned, message: "\(invitee.username) is banned from this room.")
            }
            let draft = MessageDraft(
                sender: member,
                body: .membership(.invited(invitee.sender)))
            _ = try await self.hub.room(room.id).commit(draft)
            await self.sessions.joined([invitee.id], room: room.id)
        }
    }

    /// The direct room of `user` and the account called `username`, created on first use.
    public func directRoom(of user: UUID, with username: String) async throws -> RoomInfo {
        try await StoreUnavailable.guarding("the direct room could not be opened") {
            let peer = try await self.account(named: username)
            guard peer.id != user else {
                throw Refusal.invalid(.invalidPeer, "A direct room is with someone else.")
            }
            try await self.blocking.requireNotBlocked(user, by: peer.id)
            let room = try await self.directory.directRoom(between: user, and: peer.id)
            await self.sessions.joined([user, peer.id], room: room.id)
            return room
        }
    }

    /// The rooms `user` belongs to.
    public func rooms(of user: UUID) async throws -> [RoomID] {
        try await StoreUnavailable.guarding("your rooms could not be read") {
            try await self.directory.memberships(of: user).map(\.room.id)
        }
    }

    /// What of the room notifies `user` (PROTOCOL.md §9.10): `all`, `mentions` or `none`, kept for every device.
    public func setNotifications(_ rawLevel: String, in id: RoomID, for user: UUID) async throws -> RoomInfo {
        guard let level = NotificationLevel(rawValue: rawLevel) else {
            throw Refusal.invalid(.invalidBody, "level is \"all\", \"mentions\" or \"none\".")
        }
        return try await StoreUnavailable.guarding("the notification level could not be saved") {
            let room = try await self.access.room(id, for: user)
            guard try await self.directory.setNotifications(level, of: user, in: room.id) else {
                throw RoomAccessDenied.forbidden
            }
            return room
        }
    }

    /// How many members a page of ``members(of:for:limit:)`` may list; 200 when it does not say.
    public static let memberLimits = 1...1000
    public static let defaultMemberLimit = 200

    /// The members by username, at most `limit`, each with their role and whether they are muted, for a member of
    /// the room.
    public func members(of id: RoomID, for user: UUID, limit: Int?) async throws -> [RoomMemberPayload] {
        try await StoreUnavailable.guarding("the members could not be read") {
            let room = try await self.access.room(id, for: user)
            let limit = limit ?? Self.defaultMemberLimit
            guard Self.memberLimits.contains(limit) else {
                throw Refusal.invalid(.invalidLimit, "limit is 1 to 1000.")
            }
            let standings = try await self.directory.standings(in: room.id)
            return try await self.accounts.accounts(ids: Array(standings.keys), limit: limit).map { account in
                let standing = standings[account.id] ?? MemberStanding()
                return RoomMemberPayload(profile: account.profile, role: standing.role, muted: standing.muted)
            }
        }
    }

    /// A room name as stored: trimmed, 1 to 64 characters, no control characters.
    public static func roomName(_ raw: String) throws(Refusal) -> String {
        guard let name = AccountRules.normalizedDisplayName(raw) else {
            throw Refusal.invalid(.invalidName, "A room name is 1 to 64 characters without control characters.")
        }
        return name
    }

    /// The account called `username`, or ``Refusal/unknownUser(_:)``.
    private func account(named username: String) async throws -> Account {
        guard let account = try await self.accounts.account(username: username) else {
            throw Refusal.unknownUser(username)
        }
        return account
    }
}
