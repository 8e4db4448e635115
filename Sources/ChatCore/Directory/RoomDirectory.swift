import ChatProtocol
import Foundation

/// The kinds of room live in ChatProtocol, shared with the clients.
public typealias RoomKind = ChatProtocol.RoomKind

/// A room's identity and description, as stored.
public struct RoomInfo: Sendable, Equatable {
    public var id: RoomID
    public var kind: RoomKind
    /// The name of a channel or group; `nil` for direct rooms, which are named after the other member.
    public var name: String?
    public var createdBy: UUID?
    /// For a direct room, the two accounts it is between, members or not (one may have left or been blocked).
    public var pair: [UUID]?
    /// The attachment holding a channel's or group's picture (PROTOCOL.md §7.7); `nil` for its colour and initials.
    public var avatar: UUID?

    public init(id: RoomID, kind: RoomKind, name: String?, createdBy: UUID?) {
        self.id = id
        self.kind = kind
        self.name = name
        self.createdBy = createdBy
    }

    /// The lobby the tutorial protocols talk in: a public channel every account sees.
    public static let lobby = RoomInfo(id: .lobby, kind: .channel, name: "Lobby", createdBy: nil)
}

/// One user's membership of one room.
public struct Membership: Sendable, Equatable {
    public var room: RoomInfo
    /// The last sequence number this member has read.
    public var lastReadSeq: Int64
    public var standing: MemberStanding
    public var personal: PersonalRoomState

    public init(
        room: RoomInfo, lastReadSeq: Int64, standing: MemberStanding = MemberStanding(),
        personal: PersonalRoomState = PersonalRoomState()
    ) {
        self.room = room
        self.lastReadSeq = lastReadSeq
        self.standing = standing
        self.personal = personal
    }
}

/// What a member keeps for themselves in a room, on every device (PROTOCOL.md §7): whether it is pinned to the top of
/// their list, the draft they left in it, and whether they marked it unread. Read for summaries only, never on the
/// path of a message.
public struct PersonalRoomState: Sendable, Equatable {
    public var pinned: Bool
    public var draft: String?
    /// Marked unread by hand until the member reads further (or clears the mark).
    public var markedUnread: Bool

    public init(pinned: Bool = false, draft: String? = nil, markedUnread: Bool = false) {
        self.pinned = pinned
        self.draft = draft
        self.markedUnread = markedUnread
    }
}

/// How a member stands in a room: their role, whether a moderator muted them, and what of it notifies them.
public struct MemberStanding: Sendable, Equatable {
    public var role: RoomRole
    /// A muted member reads, and sends nothing (PROTOCOL.md §7.3).
    public var muted: Bool
    /// The member's own choice (PROTOCOL.md §9.10); `nil` for the default of the room's kind.
    public var notifications: NotificationLevel?

    public init(role: RoomRole = .member, muted: Bool = false, notifications: NotificationLevel? = nil) {
        self.role = role
        self.muted = muted
        self.notifications = notifications
    }
}

/// The levels live in ChatProtocol, shared with the clients.
public typealias NotificationLevel = ChatProtocol.NotificationLevel

/// What a moderator holds against one account in one room. Kept apart from the membership, so leaving and joining
/// again lifts neither.
public enum RoomRestriction: String, Sendable, CaseIterable {
    /// May not be a member: removed, and cannot join or be invited until unbanned.
    case ban
    /// May read, not send.
    case mute
}

/// Durable storage of rooms and who belongs to them.
public protocol RoomDirectory: Sendable {
    /// Creates the lobby if it does not exist yet.
    func ensureLobby() async throws
    /// Stores a new room with its first members.
    func create(_ room: RoomInfo, members: [UUID]) async throws
    /// The direct room of two users, created on first use; the same room whichever of them asks.
    func directRoom(between first: UUID, and second: UUID) async throws -> RoomInfo
    /// The direct room of the two, if it was ever opened; never creates one.
    func existingDirectRoom(between first: UUID, and second: UUID) async throws -> RoomInfo?
    func room(_ id: RoomID) async throws -> RoomInfo?
    /// Every room `user` belongs to.
    func memberships(of user: UUID) async throws -> [Membership]
    /// Every channel, with its member count.
    func channels() async throws -> [(room: RoomInfo, members: Int)]
    /// Every room, by id after `after`, at most `limit`, with its member count and when its last event was
    /// committed: the administrators' list (PROTOCOL.md §10.5). No message content.
    func allRooms(after: RoomID?, limit: Int) async throws -> [RoomListing]
    func isMember(_ user: UUID, of room: RoomID) async throws -> Bool
    /// A member's role and whether they are muted; `nil` for someone who is not a member. Asked for the sends that
    /// the commit does not check itself, so it is one row.
    func standing(of user: UUID, in room: RoomID) async throws -> MemberStanding?
    /// Every member's standing.
    func standings(in room: RoomID) async throws -> [UUID: MemberStanding]
    /// Whether `user` is under `restriction` in the room.
    func isRestricted(_ user: UUID, in room: RoomID, _ restriction: RoomRestriction) async throws -> Bool
    /// Puts `user` under `restriction`; nothing changes if already. (A ban is stored by the `banned` event instead,
    /// with the removal, in one transaction.)
    func restrict(_ user: UUID, in room: RoomID, _ restriction: RoomRestriction, by actor: UUID?) async throws
    /// Sets what of the room notifies a member (`nil`: the default); `false` when `user` is not a member.
    func setNotifications(_ level: NotificationLevel?, of user: UUID, in room: RoomID) async throws -> Bool
    /// A member's pin and draft; `nil` for someone who is not a member.
    func personalState(of user: UUID, in room: RoomID) async throws -> PersonalRoomState?
    /// Pins the room to the top of a member's list, or unpins it; `false` when `user` is not a member.
    func setPinned(_ pinned: Bool, of user: UUID, in room: RoomID) async throws -> Bool
    /// Keeps a member's draft (`nil`: none); `false` when `user` is not a member.
    func setDraft(_ draft: String?, of user: UUID, in room: RoomID) async throws -> Bool
    /// Marks the room unread for `user`, or clears the mark; `false` when `user` is not a member. Reading further
    /// (``markRead(_:in:upTo:)`` moving the position) clears it too.
    func setMarkedUnread(_ marked: Bool, of user: UUID, in room: RoomID) async throws -> Bool
    /// Lifts `restriction`; returns whether there was one.
    func lift(_ restriction: RoomRestriction, of user: UUID, in room: RoomID) async throws -> Bool
    /// Everyone under `restriction` in the room.
    func restricted(in room: RoomID, _ restriction: RoomRestriction) async throws -> [UUID]
    /// The members of a room, in no particular order.
    func members(of room: RoomID) async throws -> [UUID]
    /// Every room of at most `limit` members that one of `users` belongs to, with all its members: who shares a
    /// small room with whom, for many users in one query (presence asks it for everyone whose presence changed; a
    /// larger room, such as the lobby of a big server, is left out without reading its members).
    func members(ofRoomsOf users: Set<UUID>, ofAtMost limit: Int) async throws -> [RoomID: [UUID]]
    /// Deletes the room with everything in it: its events, reactions, reports, bans, memberships, and its
    /// attachments' links (the files go with the attachment sweep). In one transaction.
    func deleteRoom(_ id: RoomID) async throws
    /// Adds a member; nothing happens if already one.
    func add(_ user: UUID, to room: RoomID) async throws
    func remove(_ user: UUID, from room: RoomID) async throws
    /// How far a member has read a room; `nil` when the user is not a member.
    func lastReadSeq(of user: UUID, in room: RoomID) async throws -> Int64?
    /// How far each member who has read anything has read the room.
    func readPositions(in room: RoomID) async throws -> [(user: UUID, seq: Int64)]
    /// Moves a member's last-read seq forward to `seq` (never backwards); returns the value now stored, or `nil` when
    /// the user is not a member.
    func markRead(_ user: UUID, in room: RoomID, upTo seq: Int64) async throws -> Int64?
}

/// A room as the administrators' list shows it.
public struct RoomListing: Sendable, Equatable {
    public var room: RoomInfo
    public var members: Int
    /// When its last event was committed; `nil` for a room without any.
    public var lastActivity: Date?

    public init(room: RoomInfo, members: Int, lastActivity: Date?) {
        self.room = room
        self.members = members
        self.lastActivity = lastActivity
    }
}
