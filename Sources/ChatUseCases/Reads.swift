import ChatCore
import ChatProtocol
import Foundation

/// Why a read position did not move.
public enum ReadRefusal: Error {
    /// `seq` is past the room's newest event.
    case pastEnd(latest: Int64)
    /// The stored position is already `stored`, at or past `seq`: read only moves forward.
    case stale(stored: Int64)
    /// Not a member, or the membership could not be checked.
    case denied(RoomAccessDenied)
    /// The room or the position could not be read or saved.
    case unavailable(any Error)
}

/// How far each member has read a room (PROTOCOL.md §8.5): moving my position, and reading everyone's.
public struct Reads: Sendable {
    public let access: RoomAccess
    public let hub: Hub

    public init(access: RoomAccess, hub: Hub) {
        self.access = access
        self.hub = hub
    }

    /// Moves `user`'s last-read seq forward to `seq` and tells every member of the room, the user's other devices
    /// included, with a `receipt`.
    public func markRead(_ user: UUID, in id: RoomID, upTo seq: Int64) async throws(ReadRefusal) {
        do {
            try await self.access.requireMember(user, of: id)
        } catch {
            throw .denied(error)
        }
        let stored: Int64?
        let room: Room
        do {
            room = try await self.hub.room(id)
            var latest = await room.latestSeq
            if seq > latest {
                // Another node may have committed more than this one has delivered yet (the reader saw it there, on
                // another device): the store has the last word.
                latest = max(latest, try await self.hub.store.lastSequence(in: id))
            }
            guard seq <= latest else { throw ReadRefusal.pastEnd(latest: latest) }
            stored = try await self.access.directory.markRead(user, in: id, upTo: seq)
        } catch let refusal as ReadRefusal {
            throw refusal
        } catch {
            throw .unavailable(error)
        }
        // Left the room between the check and the write.
        guard let stored else { throw .denied(.forbidden) }
        guard stored == seq else { throw .stale(stored: stored) }
        room.receipt(from: user, upTo: seq)
    }

    /// Each member's position, as the `receipt` frames that moved them there, furthest first: what a client that
    /// was away needs to show "read by" again.
    public func positions(in id: RoomID, for user: UUID) async throws -> [ReceiptFrame] {
        try await StoreUnavailable.guarding("the read positions could not be read") {
            try await self.access.requireMember(user, of: id)
            return try await self.access.directory.readPositions(in: id)
                .map { ReceiptFrame(room: id.rawValue, user: $0.user, seq: $0.seq) }
                .sorted { ($0.seq, $0.user.uuidString) > ($1.seq, $1.user.uuidString) }
        }
    }
}
