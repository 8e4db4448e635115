import ChatCore
import Foundation
import NIOConcurrencyHelpers

/// How a room event reads to the tutorial clients, which know only plain text messages (PROTOCOL.md §9.8).
final class LegacyText: Sendable {
    /// Where attachments are fetched: the server's public URL followed by the attachments path. Set once the HTTP
    /// port is bound, when no `--public-url` is configured.
    private let attachmentsURL: NIOLockedValueBox<String>

    init(publicURL: String) {
        self.attachmentsURL = NIOLockedValueBox(Self.attachmentsURL(publicURL))
    }

    func setPublicURL(_ publicURL: String) {
        self.attachmentsURL.withLockedValue { $0 = Self.attachmentsURL(publicURL) }
    }

    private static func attachmentsURL(_ publicURL: String) -> String {
        publicURL + "/" + Paths.api.joined(separator: "/") + "/" + Paths.attachments
    }

    /// A message's text followed by the URL of each attachment; `nil` for edits, deletes, reactions and deleted
    /// messages, which tutorial clients cannot show.
    func text(of message: StoredMessage) -> String? {
        guard message.isVisibleMessage else { return nil }
        guard !message.attachments.isEmpty else { return message.text }
        let base = self.attachmentsURL.withLockedValue { $0 }
        let urls = message.attachments.map { "\(base)/\($0.id.uuidString)" }
        return ([message.text].filter { !$0.isEmpty } + urls).joined(separator: " ")
    }
}
