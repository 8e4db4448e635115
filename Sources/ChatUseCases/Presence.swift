import ChatCore
import Foundation

/// Who is online, on this node and on every other (PROTOCOL.md §9.5). This node's connections are counted by its
/// ``PresenceTracker`` (with the grace period); what a change here means for everyone, and who is online elsewhere,
/// is the ``PresenceAnnouncer``'s: this node alone on SQLite, rows in PostgreSQL shared by every node.
public struct Presence: Sendable {
    public let tracker: PresenceTracker
    public let announcer: any PresenceAnnouncer

    /// The tracker's changes go to the announcer.
    public init(grace: Duration, time: any TimeSource, announcer: any PresenceAnnouncer) {
        self.announcer = announcer
        self.tracker = PresenceTracker(grace: grace, time: time) { user, online, lastSeen in
            await announcer.changed(user, online: online, lastSeen: lastSeen)
        }
        announcer.start(following: self.tracker)
    }

    public func connected(_ user: UUID) { self.tracker.connected(user) }
    public func disconnected(_ user: UUID) { self.tracker.disconnected(user) }

    /// Which of `users` are online on any node.
    public func online(among users: Set<UUID>) async -> Set<UUID> {
        await self.announcer.online(among: users, here: self.tracker.onlineUsers.intersection(users))
    }

    public func isOnline(_ user: UUID) async -> Bool {
        await self.online(among: [user]).contains(user)
    }

    /// Stops the grace timers, then the announcer.
    public func close() async {
        await self.tracker.close()
        await self.announcer.close()
    }
}

/// What follows when a user comes online on this node or (after the grace period) has no connection left here.
public protocol PresenceAnnouncer: Sendable {
    /// From now on `tracker` says who is online on this node (what the announcer keeps for the other nodes follows it).
    func start(following tracker: PresenceTracker)
    /// Tells the user's roommates, unless the user is still online on another node (or already was).
    func changed(_ user: UUID, online: Bool, lastSeen: Date?) async
    /// Which of `users` are online anywhere; `here` are those online on this node.
    func online(among users: Set<UUID>, here: Set<UUID>) async -> Set<UUID>
    func close() async
}

/// This node's connections, which presence changes announced by any node are pushed to.
public protocol PresenceAudience: Sendable {
    /// Tells the user's roommates connected here that the user came online or went offline.
    func push(_ user: UUID, online: Bool, lastSeen: Date?)
    /// Returns once every change pushed so far has been sent.
    func drained() async
}
