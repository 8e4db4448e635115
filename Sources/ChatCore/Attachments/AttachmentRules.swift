/// What one message may carry (PROTOCOL.md §9.2, §9.7).
public enum AttachmentRules {
    /// The most attachments one message may carry.
    public static let maxPerMessage = 10
}
