import ChatCore
import Foundation

/// Why an account may not use a room now.
public enum RoomAccessDenied: Error {
    /// Not a member, or no such room: the same answer for both, so nothing leaks.
    case forbidden
    /// A member whom a moderator muted, asking to send (PROTOCOL.md §7.3).
    case muted
    /// The directory could not be asked (the database failed): the caller may retry, and is never told
    /// `forbidden` for it.
    case unavailable(any Error)

    /// What `forbidden` says, over HTTP and on the socket alike.
    public static let forbiddenMessage = "You are not a member of that room, or it does not exist."
    /// What `muted` says.
    public static let mutedMessage = "A moderator muted you in this room: you may read, not send."
    /// What the log says when the membership could not be checked.
    public static let unavailableMessage = "membership could not be checked"
}

/// The one membership check of every endpoint (HTTP, the modern socket): asked of the directory every time, so
/// leaving a room (on any device) takes effect at once on connections that are already open.
public struct RoomAccess: Sendable {
    public let directory: any RoomDirectory

    public init(directory: any RoomDirectory) {
        self.directory = directory
    }

    /// Returns when `user` belongs to `room`; throws ``RoomAccessDenied`` otherwise.
    public func requireMember(_ user: UUID, of room: RoomID) async throws(RoomAccessDenied) {
        let isMember: Bool
        do {
            isMember = try await self.directory.isMember(user, of: room)
        } catch {
            throw .unavailable(error)
        }
        guard isMember else { throw .forbidden }
    }

    /// Returns `user`'s standing in `room` (their role) when they may send there: a member, not muted. Throws
    /// ``RoomAccessDenied`` otherwise.
    @discardableResult
    public func requireSender(_ user: UUID, in room: RoomID) async throws(RoomAccessDenied) -> MemberStanding {
        let standing: MemberStanding?
        do {
            standing = try await self.directory.standing(of: user, in: room)
        } catch {
            throw .unavailable(error)
        }
        guard let standing else { throw .forbidden }
        guard !standing.muted else { throw .muted }
        return standing
    }

    /// The room, when `user` belongs to it; throws ``RoomAccessDenied`` otherwise.
    public func room(_ id: RoomID, for user: UUID) async throws(RoomAccessDenied) -> RoomInfo {
        try await self.requireMember(user, of: id)
        let room: RoomInfo?
        do {
            room = try await self.directory.room(id)
        } catch {
            throw .unavailable(error)
        }
        guard let room else { throw .forbidden }
        return room
    }
}
