import ChatCore
import ChatProtocol
import Foundation

/// Renames a channel or group (PROTOCOL.md §7, §9.1). Any member renames a group; only a channel's owner and
/// moderators rename it, since anyone can join it. A muted member renames nothing. The rename is an event of the room, so every member's connections receive it in
/// order, and it is replayed and paged like a message. The same name again stores nothing.
public struct RenameRoom: Sendable {
    public let access: RoomAccess
    public let hub: Hub

    public init(access: RoomAccess, hub: Hub, time: any TimeSource) {
        self.access = access
        self.hub = hub
        self.limiter = AttemptLimiter(time: time, burst: 10, refill: .seconds(10))
    }
    /// Renames per account: 10 at once, then one every 10 seconds (each one is an event every member receives).
    private let limiter: AttemptLimiter

    /// The room as it is named now.
    public func callAsFunction(_ id: RoomID, to rawName: String, by member: Sender) async throws -> RoomInfo {
        try await StoreUnavailable.guarding("the room could not be renamed") {
            let room = try await self.access.room(id, for: member.id)
            let standing = try await self.access.requireSender(member.id, in: room.id)
            let name = try RoomMembership.roomName(rawName)
            switch room.kind {
            case .direct:
                throw Refusal.invalid(.cannotRename, "A direct room is named after the other member.")
            case .channel where room.id == .lobby:
                throw Refusal(kind: .notAllowed, code: .notAllowed, message: "The lobby keeps its name.")
            case .channel:
                guard standing.role >= .moderator else {
                    throw Refusal(
                        kind: .notAllowed, code: .notAllowed,
                        message: "Only the channel's owner and moderators may rename it.")
                }
            case .group:
                break
            }
            guard name != room.name else { return room }
            if let wait = self.limiter.attempt([member.id.uuidString]) {
                throw Refusal.rateLimited(.rename, "You renamed rooms often lately; try again in", wait)
            }
            let hubRoom = try await self.hub.room(room.id)
            let draft = MessageDraft(sender: member, body: .rename(name: name))
            do {
                try await hubRoom.commit(draft)
            } catch RoomRejection.forbidden {
                // Removed from the room on another node since the check: the commit's own check is the last word.
                throw RoomAccessDenied.forbidden
            } catch RoomRejection.rateLimited(let wait) {
                throw Refusal.rateLimited(.send, "You sent many messages lately; try again in", wait)
            }
            return RoomInfo(id: room.id, kind: room.kind, name: name, createdBy: room.createdBy)
        }
    }
}
