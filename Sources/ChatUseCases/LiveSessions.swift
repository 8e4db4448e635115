import ChatCore
import Foundation

/// What the use cases tell the open connections; the realtime layer's session registry implements it, so the HTTP
/// endpoints reach every device of an account without knowing how a connection works.
public protocol LiveSessions: Sendable {
    /// These users are in the room now: their open connections follow it at once (PROTOCOL.md §9.6).
    func joined(_ users: [UUID], room: RoomID) async
    /// The user left the room: their open connections stop receiving it and say so.
    func left(_ user: UUID, room: RoomID) async
    /// Closes every connection of an account whose tokens were all revoked (a password change).
    func closeAll(account: UUID)
    /// Closes every connection of an account an administrator deactivated, saying so (4003, PROTOCOL.md §10.2).
    func closeAll(deactivated account: UUID)
    /// Closes every connection opened with a token that was just revoked (PROTOCOL.md §6.3).
    func closeAll(tokenHash: String)
}
