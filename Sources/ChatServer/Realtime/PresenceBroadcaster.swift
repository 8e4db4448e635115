import ChatCore
import ChatProtocol
import Foundation
import Logging
import NIOCore

/// Tells everyone on this node who shares a room with a user when that user comes online or goes offline
/// (PROTOCOL.md §9.5), and records when they were last seen.
struct PresenceBroadcaster: Sendable {
    let directory: any RoomDirectory
    let accounts: any AccountStore
    let sessions: SessionRegistry
    let logger: Logger

    /// Records the last seen time of a user going offline, then tells their roommates connected here.
    func announce(_ user: UUID, online: Bool, lastSeen: Date?) async {
        if let lastSeen {
            do {
                try await self.accounts.setLastSeen(user, at: lastSeen)
            } catch {
                self.logger.warning("could not record when \(user) was last seen: \(error)")
            }
        }
        await self.push(user, online: online, lastSeen: lastSeen)
    }

    /// Tells the user's roommates connected to this node: the frame is encoded once and written by one task per
    /// event loop (a lobby's roommates are every account, and everyone connecting is a change).
    func push(_ user: UUID, online: Bool, lastSeen: Date?) async {
        let roommates: Set<UUID>
        do {
            roommates = try await self.directory.roommates(of: user)
        } catch {
            self.logger.warning("could not announce presence of \(user): \(error)")
            return
        }
        let entry = PresenceEntry(id: user, online: online, lastSeen: lastSeen?.milliseconds)
        guard let frame = ModernRenderer.frame(PresenceFrame(users: [entry])) else { return }
        for connections in self.sessions.connections(of: roommates.subtracting([user])).values {
            guard let loop = connections.first?.eventLoop else { continue }
            FanOut.write([frame], to: connections, on: loop)
        }
    }
}

/// One node: every change is news, and who is online here is who is online.
struct LocalPresenceAnnouncer: PresenceAnnouncer {
    let broadcaster: PresenceBroadcaster

    func start(following tracker: PresenceTracker) {}

    func changed(_ user: UUID, online: Bool, lastSeen: Date?) async {
        await self.broadcaster.announce(user, online: online, lastSeen: lastSeen)
    }

    func online(among users: Set<UUID>, here: Set<UUID>) async -> Set<UUID> { here }

    func close() async {}
}
