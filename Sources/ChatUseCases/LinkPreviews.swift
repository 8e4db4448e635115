import ChatCore
import ChatProtocol
import Foundation

/// Link previews (PROTOCOL.md §9.15): for each message this node commits that carries an `http(s)` link, the first
/// link's page is described (title, description, site, image) in a `preview` event of the room's sequence, which
/// every client, history page and resume sees. *One node fetches:* the one that committed the message, told by its
/// rooms (``CommitObserver``); the shared ``LinkPreviewCache`` makes one fetch per URL per
/// ``LinkPreviewCache/freshness`` serve every message, room and node.
///
/// Off the path of a message: rooms hand over the batches that may hold a link (a scan for `://`) and go on; a
/// bounded buffer holds them, and one task works through them.
public final class LinkPreviews: CommitObserver {
    private let batches: AsyncStream<[StoredMessage]>
    private let continuation: AsyncStream<[StoredMessage]>.Continuation
    /// Each sender's previews: ``burst`` at once, then one per ``refill``.
    private let limiter: AttemptLimiter

    public static let burst = 10
    public static let refill: Duration = .seconds(6)
    /// How long a message waits for another node's fetch of its link before it goes without a preview.
    static let pendingWait: Duration = .seconds(8)

    public init(time: any TimeSource, bufferedBatches: Int = 10_000) {
        (self.batches, self.continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(bufferedBatches))
        self.limiter = AttemptLimiter(time: time, burst: Self.burst, refill: Self.refill)
    }

    public func committed(_ events: [StoredMessage]) {
        let linked = events.filter { $0.kind == .message && MessageLinks.mayContainLink($0.text) }
        if !linked.isEmpty { self.continuation.yield(linked) }
    }

    /// The dependencies of ``run(_:)``, known once the server is wired.
    public struct Context: Sendable {
        let cache: any LinkPreviewCache
        let hub: Hub
        /// Fetches the page at a URL and reads its description; `nil` when it is not an HTML page worth showing, an
        /// error when the fetch failed (refused, timed out, not found).
        let page: @Sendable (_ url: String) async throws -> LinkPreviewPage?
        /// Fetches an image and keeps it as an attachment uploaded by `uploader`; `nil` when it is no image.
        let image: @Sendable (_ url: String, _ uploader: UUID) async throws -> Attachment?
        let logger: @Sendable (String) -> Void

        public init(
            cache: any LinkPreviewCache, hub: Hub,
            page: @escaping @Sendable (String) async throws -> LinkPreviewPage?,
            image: @escaping @Sendable (String, UUID) async throws -> Attachment?,
            logger: @escaping @Sendable (String) -> Void
        ) {
            self.cache = cache
            self.hub = hub
            self.page = page
            self.image = image
            self.logger = logger
        }
    }

    /// Previews the links of the messages committed from now on, until cancelled.
    public func run(_ context: Context) async {
        for await batch in self.batches {
            for event in batch where !event.deleted {
                guard let url = MessageLinks.first(in: event.text) else { continue }
                if self.limiter.attempt(["sender:\(event.sender.id.uuidString)"]) != nil {
                    context.logger("link preview skipped: \(event.sender.name) sent many links lately")
                    continue
                }
                do {
                    guard let preview = try await self.preview(of: url, for: event, context) else { continue }
                    _ = try await context.hub.room(event.room).commit(
                        MessageDraft(sender: event.sender, body: .preview(target: event.seq, preview: preview)))
                } catch {
                    context.logger("link preview of \(url): \(error)")
                }
            }
        }
    }

    /// What `url` shows: from the cache, fetched now, or fetched by another caller meanwhile.
    private func preview(of url: String, for event: StoredMessage, _ context: Context) async throws -> LinkPreview? {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: Self.pendingWait)
        while true {
            switch try await context.cache.claim(url, at: Date()) {
            case .cached(let preview):
                return preview
            case .fetch:
                let preview = await self.fetch(url, uploader: event.sender.id, context)
                try await context.cache.settle(url, preview: preview, at: Date())
                return preview
            case .pending:
                guard clock.now < deadline else { return nil }
                try await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    /// The page's preview, its image kept as an attachment; `nil` when there is nothing to show or the fetch failed
    /// (the failure is cached as well: a broken link is not fetched again for every message that carries it).
    private func fetch(_ url: String, uploader: UUID, _ context: Context) async -> LinkPreview? {
        let page: LinkPreviewPage
        do {
            guard let fetched = try await context.page(url), fetched.isWorthShowing else { return nil }
            page = fetched
        } catch {
            context.logger("link preview of \(url) failed: \(error)")
            return nil
        }
        var image: Attachment?
        if let imageURL = page.imageURL {
            do {
                image = try await context.image(imageURL, uploader)
            } catch {
                context.logger("link preview image \(imageURL) failed: \(error)")
            }
        }
        return LinkPreview(
            url: url, title: page.title, description: page.description, siteName: page.siteName,
            image: image?.payload)
    }
}
