import ChatCore
import ChatProtocol
import Foundation
import Logging

/// Tells everyone who shares a room with a user when that user comes online or goes offline (PROTOCOL.md §9.5),
/// and records when they were last seen.
struct PresenceBroadcaster: Sendable {
    let directory: any RoomDirectory
    let accounts: any AccountStore
    let sessions: SessionRegistry
    let logger: Logger

    func broadcast(_ user: UUID, online: Bool, lastSeen: Date?) async {
        do {
            if let lastSeen {
                try await self.accounts.setLastSeen(user, at: lastSeen)
            }
            let frame = PresenceFrame(users: [PresenceEntry(id: user, online: online, lastSeen: lastSeen?.milliseconds)]
            )
            for roommate in try await self.directory.roommates(of: user) where roommate != user {
                for worker in self.sessions.workers(of: roommate) {
                    await worker.push(frame)
                }
            }
        } catch {
            self.logger.warning("could not announce presence of \(user): \(error)")
        }
    }
}
