import ChatCore
import ChatProtocol
import Foundation

/// Search of the messages in my rooms (PROTOCOL.md §9.7): words in any script, phrases, exclusions and filters,
/// newest first, with snippets.
public struct SearchMessages: Sendable {
    let search: any MessageSearch
    let access: RoomAccess
    let accounts: any AccountStore

    public init(search: any MessageSearch, access: RoomAccess, accounts: any AccountStore) {
        self.search = search
        self.access = access
        self.accounts = accounts
    }

    /// How many results a search may ask for; 20 when it does not say.
    public static let limits = 1...100
    public static let defaultLimit = 20

    /// The filters a request may also give as parameters (`from=ann&has=link,image`), as if typed in the query.
    public static let filterParameters = ["from", "has", "before", "after"]

    /// The matches of `text` and `filters` for `user`, in `room` when one is named by its id.
    public func callAsFunction(
        _ text: String, filters: [(key: String, value: String)] = [], for user: UUID, in room: RoomID?, limit: Int?
    ) async throws -> SearchResults {
        let limit = limit ?? Self.defaultLimit
        guard Self.limits.contains(limit) else {
            throw Refusal.invalid(.invalidLimit, "limit is \(Self.limits.lowerBound) to \(Self.limits.upperBound).")
        }
        var query: SearchQuery
        do {
            query = try SearchQuery.parse(text)
            for filter in filters { try query.apply(filter.key, filter.value) }
        } catch {
            throw Refusal.invalid(.invalidQuery, error.message)
        }
        guard !text.allSatisfy(\.isWhitespace) || query.hasFilter || room != nil else {
            throw Refusal.invalid(.invalidQuery, "A search needs words or a filter.")
        }
        let parsed = query
        return try await StoreUnavailable.guarding("messages could not be searched") {
            if let room { try await self.access.requireMember(user, of: room) }
            // Only punctuation or emoji: nothing to look for, so nothing found (a room alone, with no text, is a
            // filter alone).
            guard !parsed.isEmpty || (room != nil && text.allSatisfy(\.isWhitespace)) else {
                return SearchResults(results: [])
            }
            let criteria = try await self.criteria(of: parsed, for: user, in: room)
            let found = try await self.search.search(criteria, for: user, limit: limit)
            return SearchResults(
                results: found.map { message in
                    SearchHit(
                        message: message.payload,
                        snippet: SearchSnippet.pieces(of: message.text, matching: parsed.phrases).map {
                            SnippetPiece(text: $0.text, match: $0.isMatch ? true : nil)
                        })
                })
        }
    }

    /// The query with its names resolved: `from:` to an account, `in:` to one of my rooms.
    private func criteria(of query: SearchQuery, for user: UUID, in room: RoomID?) async throws -> SearchCriteria {
        var criteria = SearchCriteria()
        criteria.required = query.phrases.map { [$0] }
        criteria.excluded = query.excluded
        criteria.before = query.before
        criteria.after = query.after
        criteria.attachments = query.has.subtracting([.link])
        if query.has.contains(.link) { criteria.required.append([SearchPhrase(.link)]) }
        if query.mentionsMe {
            criteria.required.append([SearchPhrase(.mention(user)), SearchPhrase(.mentionOfAll)])
        }
        if let from = query.from {
            guard let sender = try await self.accounts.account(username: from) else {
                throw Refusal.invalid(.invalidQuery, "from: nobody is called \(from).")
            }
            criteria.required.append([SearchPhrase(.sender(sender.id))])
        }
        criteria.room = room
        if let name = query.roomName {
            let named = try await self.room(named: name, for: user)
            if let room, room != named {
                throw Refusal.invalid(.invalidQuery, "in:\(name) and room= name different rooms.")
            }
            criteria.room = named
        }
        return criteria
    }

    /// My room called `name` (without case): a channel or group by its name, or a direct room by the other's
    /// username.
    private func room(named name: String, for user: UUID) async throws -> RoomID {
        let memberships = try await self.access.directory.memberships(of: user)
        let named = memberships.filter { $0.room.name?.caseInsensitiveCompare(name) == .orderedSame }
        guard named.count <= 1 else {
            throw Refusal.invalid(.invalidQuery, "in: several of your rooms are called \(name): give room=ID.")
        }
        if let room = named.first { return room.room.id }
        if let other = try await self.accounts.account(username: name),
            let direct = memberships.first(where: {
                $0.room.kind == .direct && $0.room.pair?.contains(other.id) == true
            })
        {
            return direct.room.id
        }
        throw Refusal.invalid(.invalidQuery, "in: none of your rooms is called \(name).")
    }
}
