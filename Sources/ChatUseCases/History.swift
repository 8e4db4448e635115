import ChatCore
import ChatProtocol
import Foundation

/// Why a page of history was not given.
public enum HistoryRefusal: Error {
    /// `limit` is outside ``History/limits``.
    case badLimit
    /// Not a member (``RoomAccessDenied/forbidden``), or the database failed.
    case denied(RoomAccessDenied)
    /// The page could not be read.
    case unavailable(any Error)
}

/// One page of a room's history for a member (PROTOCOL.md §7, §8.4): the one paging of the HTTP API and the socket.
public struct History: Sendable {
    public let access: RoomAccess
    public let messages: any MessageStore

    public init(access: RoomAccess, messages: any MessageStore) {
        self.access = access
        self.messages = messages
    }

    /// How many events a page may ask for; 50 when it does not say.
    public static let limits = 1...200
    public static let defaultLimit = 50

    /// The events before `before` (the newest when `nil`), oldest first, and whether older ones exist.
    public func page(of room: RoomID, for user: UUID, before: Int64?, limit: Int?) async throws(HistoryRefusal)
        -> HistoryPage
    {
        let limit = limit ?? Self.defaultLimit
        guard Self.limits.contains(limit) else { throw .badLimit }
        do {
            try await self.access.requireMember(user, of: room)
        } catch {
            throw .denied(error)
        }
        do {
            // One more than asked for tells whether older events exist.
            let page = try await self.messages.page(in: room, before: before, limit: limit + 1)
            return HistoryPage(messages: page.suffix(limit).map(\.payload), hasMore: page.count > limit)
        } catch {
            throw .unavailable(error)
        }
    }
}
