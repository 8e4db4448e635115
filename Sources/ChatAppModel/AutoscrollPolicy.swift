/// Whether a new message may move the list: follow only a reader who is already at the bottom (or who sent it);
/// anyone reading older messages keeps their place and gets a "new messages" pill instead.
public enum AutoscrollPolicy {
    /// What to do with one new message.
    public enum Decision: Sendable, Equatable {
        /// Scroll to it.
        case follow
        /// Keep the position; count it in the pill.
        case showPill
    }

    /// The decision for a message that arrives while the reader is (or is not) at the bottom.
    public static func decide(isAtBottom: Bool, isMine: Bool) -> Decision {
        isAtBottom || isMine ? .follow : .showPill
    }
}
