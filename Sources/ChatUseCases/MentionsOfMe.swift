import ChatCore
import ChatProtocol
import Foundation

/// `GET /api/v1/mentions` (PROTOCOL.md §9.10): the messages that mention me, across my rooms, newest first.
public struct MentionsOfMe: Sendable {
    let mentioned: any MentionedMessages

    public init(mentioned: any MentionedMessages) {
        self.mentioned = mentioned
    }

    /// 1 to 100 a page, 20 when the request does not say.
    static let limits = 1...100

    public func page(for user: UUID, before: Int64?, limit: Int?) async throws -> MentionPage {
        let limit = limit ?? 20
        guard Self.limits.contains(limit) else { throw Refusal.invalid(.invalidLimit, "limit is 1 to 100.") }
        let found = try await StoreUnavailable.guarding("the mentions could not be read") {
            try await self.mentioned.messages(mentioning: user, before: before, limit: limit + 1)
        }
        let page = found.prefix(limit)
        return MentionPage(
            messages: page.map(\.message.payload), next: found.count > limit ? page.last?.cursor : nil)
    }
}
