import Foundation

/// `POST /api/v1/bots`: a new bot's username (the rules of people's) and display name (the username when absent).
public struct BotCreateRequest: Codable, Sendable, Equatable {
    public var username: String
    public var displayName: String?

    public init(username: String, displayName: String? = nil) {
        self.username = username
        self.displayName = displayName
    }
}

/// What `POST /api/v1/bots` and `POST /api/v1/bots/{id}/token` return: the bot and its token, shown this once.
public struct BotTokenPayload: Codable, Sendable, Equatable {
    public var id: UUID
    public var username: String
    /// Send as `Authorization: Bearer <token>`; it does not expire.
    public var token: String

    public init(id: UUID, username: String, token: String) {
        self.id = id
        self.username = username
        self.token = token
    }
}

/// `GET /api/v1/bots`: my bots, by username.
public struct BotList: Codable, Sendable, Equatable {
    public var bots: [UserProfile]

    public init(bots: [UserProfile]) {
        self.bots = bots
    }
}

/// `PATCH /api/v1/bots/{id}`: the bot's outgoing webhook, or `null` for none.
public struct BotWebhookRequest: Codable, Sendable, Equatable {
    public var webhookURL: String?

    public init(webhookURL: String?) {
        self.webhookURL = webhookURL
    }
}

/// What `PATCH /api/v1/bots/{id}` answers: the webhook set, and the key its requests are signed with (a new one each
/// time a URL is set).
public struct BotWebhookPayload: Codable, Sendable, Equatable {
    public var id: UUID
    public var username: String
    public var webhookURL: String?
    public var webhookSecret: String?

    public init(id: UUID, username: String, webhookURL: String?, webhookSecret: String?) {
        self.id = id
        self.username = username
        self.webhookURL = webhookURL
        self.webhookSecret = webhookSecret
    }
}

/// One message sent to a bot's webhook, and what became of it.
public struct BotDeliveryPayload: Codable, Sendable, Equatable {
    public var room: String
    public var seq: Int64
    /// The receiver's HTTP status, when it answered.
    public var status: Int?
    /// `replied`, `delivered`, or `failed: …`.
    public var outcome: String
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var date: Int64

    public init(room: String, seq: Int64, status: Int?, outcome: String, date: Int64) {
        self.room = room
        self.seq = seq
        self.status = status
        self.outcome = outcome
        self.date = date
    }
}

/// `GET /api/v1/bots/{id}/deliveries`: the newest first.
public struct BotDeliveryList: Codable, Sendable, Equatable {
    public var deliveries: [BotDeliveryPayload]

    public init(deliveries: [BotDeliveryPayload]) {
        self.deliveries = deliveries
    }
}

/// What the server POSTs to a bot's webhook when someone sends it a direct message or mentions it.
public struct OutgoingWebhookEvent: Codable, Sendable, Equatable {
    public struct Message: Codable, Sendable, Equatable {
        public var room: String
        public var seq: Int64
        public var text: String
        public var sender: SenderPayload

        public init(room: String, seq: Int64, text: String, sender: SenderPayload) {
            self.room = room
            self.seq = seq
            self.text = text
            self.sender = sender
        }
    }

    public struct Room: Codable, Sendable, Equatable {
        public var id: String
        public var name: String?
        public var kind: String

        public init(id: String, name: String?, kind: String) {
            self.id = id
            self.name = name
            self.kind = kind
        }
    }

    public var message: Message
    public var room: Room
    /// Where the bot may post more replies in this room for ten minutes, without its token (PROTOCOL.md §9.13).
    public var replyURL: String?

    public init(message: Message, room: Room, replyURL: String? = nil) {
        self.replyURL = replyURL
        self.message = message
        self.room = room
    }
}

/// A JSON answer of a bot's webhook: `text` is posted as the bot's reply.
/// `POST /api/v1/bots/replies/{token}`'s JSON body (a `text/plain` body is the text itself).
public struct BotReplyRequest: Codable, Sendable, Equatable {
    public var text: String
    /// Makes a retry post nothing new, as a send's does; one is made up when absent.
    public var clientMsgID: String?

    public init(text: String, clientMsgID: String? = nil) {
        self.text = text
        self.clientMsgID = clientMsgID
    }
}

public struct OutgoingWebhookReply: Codable, Sendable, Equatable {
    public var text: String?

    public init(text: String?) {
        self.text = text
    }
}
