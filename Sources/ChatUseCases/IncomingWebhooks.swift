import ChatCore
import ChatProtocol
import Foundation

/// Incoming webhooks (PROTOCOL.md §9.14): a room's owner and moderators make secret URLs that other software (CI,
/// monitoring, GitLab) posts Slack-shaped messages to. What a webhook posts is a message of the room like any other,
/// from a sender without an account: the webhook, under its name (``IncomingWebhook/sender``).
public struct IncomingWebhooks: Sendable {
    let store: any WebhookStore
    let access: RoomAccess
    let accounts: any AccountStore
    let hub: Hub
    let maxMessageBytes: Int
    /// Posts per webhook: ``burst`` at once, then one a second (per node).
    let limiter: AttemptLimiter
    /// The server's address as its users reach it, for the webhooks' URLs.
    let publicURL: @Sendable () -> String

    public init(
        store: any WebhookStore, access: RoomAccess, accounts: any AccountStore, hub: Hub, maxMessageBytes: Int,
        time: any TimeSource, publicURL: @escaping @Sendable () -> String
    ) {
        self.store = store
        self.access = access
        self.accounts = accounts
        self.hub = hub
        self.maxMessageBytes = maxMessageBytes
        self.limiter = AttemptLimiter(time: time, burst: Self.burst, refill: .seconds(1))
        self.publicURL = publicURL
    }

    /// Posts one webhook may make at once before it is held to one a second.
    public static let burst = 30
    /// Webhooks one room may have.
    public static let limit = 20

    /// A new webhook of `room`, and its secret URL, shown this once.
    public func create(_ request: WebhookCreateRequest, in room: RoomID, by caller: Account) async throws
        -> WebhookPayload
    {
        let name = try RoomMembership.roomName(request.name)
        try await self.requireManager(caller, of: room)
        let secret = BearerToken.generate()
        let webhook = IncomingWebhook(id: UUID(), room: room, name: name, createdBy: caller.id, createdAt: Date())
        try await StoreUnavailable.guarding("the webhook could not be created") {
            guard try await self.store.webhooks(in: room).count < Self.limit else {
                throw Refusal(
                    kind: .conflict, code: .tooManyWebhooks,
                    message: "A room has at most \(Self.limit) webhooks: delete one first.")
            }
            try await self.store.create(webhook, secretHash: BearerToken.hash(secret))
        }
        var payload = webhook.payload
        payload.url = "\(self.publicURL())/hooks/\(secret)"
        return payload
    }

    /// The room's webhooks, without their secrets.
    public func list(in room: RoomID, by caller: Account) async throws -> WebhookList {
        try await self.requireManager(caller, of: room)
        return try await StoreUnavailable.guarding("the webhooks could not be read") {
            WebhookList(webhooks: try await self.store.webhooks(in: room).map(\.payload))
        }
    }

    /// Deletes one: its URL stops working at once. What it posted stays.
    public func delete(_ id: UUID?, in room: RoomID, by caller: Account) async throws {
        try await self.requireManager(caller, of: room)
        let deleted = try await StoreUnavailable.guarding("the webhook could not be deleted") {
            guard let id else { return false }
            return try await self.store.delete(id, in: room)
        }
        guard deleted else {
            throw Refusal(kind: .notFound, code: .unknownWebhook, message: "This room has no such webhook.")
        }
    }

    /// Why `POST /hooks/SECRET` posted nothing, in Slack's words (its answers are plain text).
    public enum PostRefusal: Error, Equatable {
        /// No webhook has this secret (404 `no_service`).
        case unknownSecret
        /// The body is not Slack's JSON, as JSON or as the form field `payload` (400 `invalid_payload`).
        case invalidPayload
        /// Nothing to show (400 `no_text`).
        case noText
        /// Longer than `--max-message-bytes` (413 `too_long`).
        case tooLong
        /// Over the webhook's rate (429 `rate_limited`), with the seconds to wait.
        case rateLimited(retryAfter: Int)
    }

    /// Posts `message` in the room of the webhook whose secret is `secret`.
    public func post(_ message: SlackMessage?, secret: String) async throws -> StoredMessage {
        let webhook = try await StoreUnavailable.guarding("the webhook could not be read") {
            try await self.store.webhook(secretHash: BearerToken.hash(secret))
        }
        guard let webhook else { throw PostRefusal.unknownSecret }
        guard let message else { throw PostRefusal.invalidPayload }
        let text = MessageText.removingControlCharacters(message.plainText)
        guard !text.allSatisfy(\.isWhitespace) else { throw PostRefusal.noText }
        guard text.utf8.count <= self.maxMessageBytes else { throw PostRefusal.tooLong }
        if let wait = self.limiter.attempt([webhook.id.uuidString]) {
            throw PostRefusal.rateLimited(retryAfter: Int(wait.components.seconds) + 1)
        }
        let draft = MessageDraft(sender: webhook.sender, body: .message(text: text))
        do {
            return try await self.hub.room(webhook.room).commit(draft)
        } catch {
            throw StoreUnavailable("the webhook's message could not be stored", underlying: error)
        }
    }

    /// The room's owner and moderators, and an administrator, manage its webhooks; a direct room has none.
    private func requireManager(_ caller: Account, of id: RoomID) async throws {
        let room = try await self.access.room(id, for: caller.id)
        guard room.kind != .direct else {
            throw Refusal.invalid(.cannotModerate, "A direct room has no webhooks.")
        }
        let role = try await StoreUnavailable.guarding("the room could not be read") {
            try await self.access.directory.standing(of: caller.id, in: room.id)?.role ?? .member
        }
        guard role >= .moderator || caller.isAdministrator else {
            throw Refusal(
                kind: .notAllowed, code: .notAllowed, message: "Only the room's owner and moderators manage webhooks.")
        }
    }
}

extension IncomingWebhook {
    public var payload: WebhookPayload {
        WebhookPayload(id: self.id, name: self.name, createdBy: self.createdBy, createdAt: self.createdAt.milliseconds)
    }
}
