import ChatCore
import ChatProtocol
import Foundation

/// How a room event reads to the tutorial clients, which know only plain text messages (PROTOCOL.md §9.8).
final class TutorialText: Sendable {
    /// Where attachment links start.
    private let publicURL: PublicURL

    init(publicURL: PublicURL) {
        self.publicURL = publicURL
    }

    /// A message's text followed by the URL of each attachment; `nil` for edits, deletes, reactions and deleted
    /// messages, which tutorial clients cannot show.
    func text(of message: StoredMessage) -> String? {
        guard message.isVisibleMessage else { return nil }
        guard !message.attachments.isEmpty else { return message.text }
        let base = self.publicURL.value
        let urls = message.attachments.map { base + APIRoute.download.path($0.id.uuidString) }
        return ([message.text].filter { !$0.isEmpty } + urls).joined(separator: " ")
    }
}
