/// Which rate limit or cap refused a request: the label its refusals are counted under
/// (`swiftchat_rate_limited_total{kind=…}`, docs/OPERATIONS.md). The use cases' limits and the transports' own
/// share it, so one counter covers every refusal.
public enum RateLimitKind: String, Sendable, CaseIterable {
    case login, registration, password, send
    case roomCreation = "room_creation"
    case rename, pin, uploads, webhook
    case socketsPerAccount = "sockets_per_account"
    case tutorialSend = "tutorial_send"
    case connections
    /// HTTP requests refused while the node works on `--max-pending-requests` others.
    case requests
}
