import ChatCore
import ChatProtocol
import Foundation
import NIOConcurrencyHelpers

/// How a room event reads to the tutorial clients, which know only plain text messages (PROTOCOL.md §9.8).
final class TutorialText: Sendable {
    /// The server's public URL, which attachment links start with. Set once the HTTP port is bound, when no
    /// `--public-url` is configured.
    private let publicURL: NIOLockedValueBox<String>

    init(publicURL: String) {
        self.publicURL = NIOLockedValueBox(publicURL)
    }

    func setPublicURL(_ publicURL: String) {
        self.publicURL.withLockedValue { $0 = publicURL }
    }

    /// A message's text followed by the URL of each attachment; `nil` for edits, deletes, reactions and deleted
    /// messages, which tutorial clients cannot show.
    func text(of message: StoredMessage) -> String? {
        guard message.isVisibleMessage else { return nil }
        guard !message.attachments.isEmpty else { return message.text }
        let base = self.publicURL.withLockedValue { $0 }
        let urls = message.attachments.map { base + APIRoute.download.path($0.id.uuidString) }
        return ([message.text].filter { !$0.isEmpty } + urls).joined(separator: " ")
    }
}
