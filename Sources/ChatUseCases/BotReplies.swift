import ChatCore
import ChatProtocol
import Foundation

/// `POST /api/v1/bots/replies/{token}` (PROTOCOL.md §9.13): a bot's later reply to what its webhook was sent, within
/// ten minutes, without its bot token: the `replyURL` of the event authorizes one room. The message goes through
/// ``PostMessage``, so it has the send's checks, limits and exactly-once rule.
public struct BotReplies: Sendable {
    let store: any BotStore
    let postMessage: PostMessage

    public init(store: any BotStore, postMessage: PostMessage) {
        self.store = store
        self.postMessage = postMessage
    }

    static let unknown = Refusal(
        kind: .notFound, code: .notFound,
        message: "No such reply URL, or it expired: a reply URL works for ten minutes after its event was sent.")

    /// Posts `text` in the token's room as its bot; a `clientMsgID` makes a retry post nothing new.
    public func post(_ request: BotReplyRequest, token: String, now: Date = Date()) async throws -> PostMessage.Outcome
    {
        guard let parsed = BotReplyToken(parsing: token), parsed.expires >= Int64(now.timeIntervalSince1970) else {
            throw Self.unknown
        }
        let webhook = try await StoreUnavailable.guarding("the bot could not be read") {
            try await self.store.webhooks(of: [parsed.bot]).first
        }
        guard let webhook, parsed.isSigned(token, with: webhook.secret) else { throw Self.unknown }
        return try await self.postMessage(
            PostMessageRequest(text: request.text, clientMsgID: request.clientMsgID ?? UUID().uuidString),
            to: parsed.room, as: Sender(name: webhook.username, id: webhook.bot))
    }

    /// The `replyURL` for an event sent to `webhook` about a message in `room`, good for ten minutes from `now`.
    static func url(for webhook: BotWebhook, in room: RoomID, publicURL: String, now: Date) -> String {
        let token = BotReplyToken(
            bot: webhook.bot, room: room, expires: Int64(now.timeIntervalSince1970) + BotReplyToken.lifetime)
        return "\(publicURL)/api/v1/bots/replies/\(token.signed(with: webhook.secret))"
    }
}
