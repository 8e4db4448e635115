import Foundation

/// `POST /api/v1/rooms/{id}/webhooks`: the new webhook's name, which its messages show.
public struct WebhookCreateRequest: Codable, Sendable, Equatable {
    public var name: String

    public init(name: String) {
        self.name = name
    }
}

/// A room's incoming webhook. `url` (`{publicURL}/hooks/SECRET`) is in the answer to its creation only: the server
/// keeps the secret's hash, not the secret.
public struct WebhookPayload: Codable, Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var url: String?
    public var createdBy: UUID
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var createdAt: Int64

    public init(id: UUID, name: String, url: String? = nil, createdBy: UUID, createdAt: Int64) {
        self.id = id
        self.name = name
        self.url = url
        self.createdBy = createdBy
        self.createdAt = createdAt
    }
}

/// `GET /api/v1/rooms/{id}/webhooks`.
public struct WebhookList: Codable, Sendable, Equatable {
    public var webhooks: [WebhookPayload]

    public init(webhooks: [WebhookPayload]) {
        self.webhooks = webhooks
    }
}

/// What `POST /hooks/SECRET` takes: Slack's incoming-webhook message, as CI systems and monitoring tools send it.
/// `username` and `icon_url` are accepted and not shown: a message shows its webhook's name, so a webhook cannot pass
/// for a person.
public struct SlackMessage: Codable, Sendable, Equatable {
    public struct Attachment: Codable, Sendable, Equatable {
        public var fallback: String?
        public var pretext: String?
        public var title: String?
        public var titleLink: String?
        public var text: String?

        public init(
            fallback: String? = nil, pretext: String? = nil, title: String? = nil, titleLink: String? = nil,
            text: String? = nil
        ) {
            self.fallback = fallback
            self.pretext = pretext
            self.title = title
            self.titleLink = titleLink
            self.text = text
        }

        enum CodingKeys: String, CodingKey {
            case fallback, pretext, title, text
            case titleLink = "title_link"
        }
    }

    public var text: String?
    public var username: String?
    public var iconURL: String?
    public var attachments: [Attachment]?

    public init(text: String? = nil, username: String? = nil, iconURL: String? = nil, attachments: [Attachment]? = nil)
    {
        self.text = text
        self.username = username
        self.iconURL = iconURL
        self.attachments = attachments
    }

    enum CodingKeys: String, CodingKey {
        case text, username, attachments
        case iconURL = "icon_url"
    }
}
