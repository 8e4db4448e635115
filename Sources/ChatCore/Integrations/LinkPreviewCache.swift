import ChatProtocol
import Foundation

/// What the shared cache of link previews says about a URL (PROTOCOL.md §9.15).
public enum LinkPreviewClaim: Sendable, Equatable {
    /// Nobody fetched it lately: the caller fetches it now, and ``LinkPreviewCache/settle(_:preview:at:)`` it.
    case fetch
    /// Fetched lately: this is what it showed (`nil`: nothing worth showing, or the fetch failed).
    case cached(LinkPreview?)
    /// Another fetch of it (on this node or another) is under way.
    case pending
}

/// The previews fetched lately, shared by every node of one database, so that a URL is fetched at most once per
/// ``LinkPreviewCache/freshness`` however many messages, rooms and nodes carry it.
public protocol LinkPreviewCache: Sendable {
    /// What is known of `url` at `now`; ``LinkPreviewClaim/fetch`` to exactly one caller at a time. A fetch that never
    /// settles stops counting after ``LinkPreviewCache/pendingLimit``.
    func claim(_ url: String, at now: Date) async throws -> LinkPreviewClaim
    /// Records what the fetch of `url` claimed before found.
    func settle(_ url: String, preview: LinkPreview?, at now: Date) async throws
}

extension LinkPreviewCache {
    /// How long a fetched preview is used again instead of fetching the page again.
    public static var freshness: Duration { .seconds(600) }
    /// How long a claimed fetch may take before another caller may claim it: past every time limit of a fetch.
    public static var pendingLimit: Duration { .seconds(30) }
}
