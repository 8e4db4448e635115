/// Every error code of the modern protocol, on the socket (`{"type":"error","code":…}`, PROTOCOL.md §8.6, §9.2)
/// and over HTTP (`{"code":…,"message":…}`, §6.1, §7, §9.3): the codes PROTOCOL.md lists, and only those
/// (`ErrorCodeTests` checks both ways). Programs switch on the code; the message is for people.
public enum ErrorCode: String, Codable, Sendable, CaseIterable {
    // The request or frame itself
    case badFrame = "bad_frame"
    case badRequest = "bad_request"
    case invalidBody = "invalid_body"
    case invalidLimit = "invalid_limit"
    case invalidBefore = "invalid_before"
    case invalidPosition = "invalid_position"
    case invalidQuery = "invalid_query"
    case invalidKind = "invalid_kind"
    case invalidName = "invalid_name"
    case invalidPeer = "invalid_peer"
    case notFound = "not_found"
    case upgradeRequired = "upgrade_required"
    // Accounts and sessions
    case unauthorized
    case invalidCredentials = "invalid_credentials"
    case invalidUsername = "invalid_username"
    case invalidPassword = "invalid_password"
    case invalidDisplayName = "invalid_display_name"
    case invalidAvatarColor = "invalid_avatar_color"
    case usernameTaken = "username_taken"
    case unknownUser = "unknown_user"
    case accountDisabled = "account_disabled"
    case registrationClosed = "registration_closed"
    case inviteRequired = "invite_required"
    case invalidInvite = "invalid_invite"
    case invalidReset = "invalid_reset"
    // Administration
    case lastAdministrator = "last_administrator"
    case alreadyResolved = "already_resolved"
    // Web Push
    case invalidEndpoint = "invalid_endpoint"
    case invalidKey = "invalid_key"
    case tooManySubscriptions = "too_many_subscriptions"
    // Bots
    case unknownBot = "unknown_bot"
    case tooManyBots = "too_many_bots"
    case unknownWebhook = "unknown_webhook"
    case tooManyWebhooks = "too_many_webhooks"
    // Rooms and messages
    case forbidden
    case notAllowed = "not_allowed"
    case blocked
    case cannotInvite = "cannot_invite"
    case cannotRename = "cannot_rename"
    case cannotModerate = "cannot_moderate"
    case tooManyPins = "too_many_pins"
    case invalidRole = "invalid_role"
    case banned
    case emptyMessage = "empty_message"
    case tooLong = "too_long"
    case badTarget = "bad_target"
    case notYours = "not_yours"
    case badEmoji = "bad_emoji"
    case badAttachment = "bad_attachment"
    case badSeq = "bad_seq"
    case staleRead = "stale_read"
    // Attachments
    case emptyUpload = "empty_upload"
    case tooLarge = "too_large"
    case quotaExceeded = "quota_exceeded"
    case unsupportedType = "unsupported_type"
    case rangeNotSatisfiable = "range_not_satisfiable"
    case timedOut = "timed_out"
    // The server
    case rateLimited = "rate_limited"
    case unavailable
    case `internal`
}
