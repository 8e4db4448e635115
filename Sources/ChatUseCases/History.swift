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

    /// Where a page stands in the room's sequence.
    public enum Position: Sendable, Equatable {
        /// The newest events.
        case newest
        /// The events before this `seq`.
        case before(Int64)
        /// The events after this `seq`, oldest first: paging down from a page opened in the middle.
        case after(Int64)
        /// The events around this `seq`, which is in the page: a search hit opened where it was said.
        case around(Int64)
    }

    /// The events before `before` (the newest when `nil`), oldest first, and whether older ones exist.
    public func page(of room: RoomID, for user: UUID, before: Int64?, limit: Int?) async throws(HistoryRefusal)
        -> HistoryPage
    {
        try await self.page(of: room, for: user, at: before.map(Position.before) ?? .newest, limit: limit)
    }

    /// The page at `position`, oldest first: `hasMore` says whether older events exist and, for a page after or
    /// around an event, `hasNewer` whether newer ones do.
    public func page(of room: RoomID, for user: UUID, at position: Position, limit: Int?) async throws(HistoryRefusal)
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
            switch position {
            case .newest, .before:
                let before: Int64? = if case .before(let seq) = position { seq } else { nil }
                // One more than asked for tells whether older events exist.
                let page = try await self.messages.page(in: room, before: before, limit: limit + 1)
                return HistoryPage(messages: page.suffix(limit).map(\.payload), hasMore: page.count > limit)
            case .after(let seq):
                return try await self.window(in: room, through: seq + Int64(limit), limit: limit) { $0 > seq }
            case .around(let seq):
                // Half the page before the event, the event, the rest after it.
                return try await self.window(in: room, through: seq + Int64(limit - 1 - (limit - 1) / 2), limit: limit)
            }
        } catch {
            throw .unavailable(error)
        }
    }

    /// The last `limit` events up to `last` (a room's `seq`s have no gaps, so this reaches the events after any
    /// `seq` below it), those that `keep`; with whether older and newer events exist.
    private func window(
        in room: RoomID, through last: Int64, limit: Int, keep: (Int64) -> Bool = { _ in true }
    ) async throws -> HistoryPage {
        let page = try await self.messages.page(in: room, before: last + 1, limit: limit + 1)
        let newest = try await self.messages.lastSequence(in: room)
        let shown = page.suffix(limit).filter { keep($0.seq) }
        return HistoryPage(
            messages: shown.map(\.payload),
            hasMore: page.count > limit || (page.first?.seq ?? 1) < (shown.first?.seq ?? 1),
            hasNewer: newest > last)
    }
}
