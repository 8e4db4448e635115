import ChatCore
import ChatProtocol
import Vapor

/// `GET /api/v1/config` (PROTOCOL.md §9.7): the limits a client checks before it uploads or sends.
struct ConfigController: Sendable {
    let limits: ServerLimits

    init(configuration: ServerConfiguration) {
        self.limits = ServerLimits(
            version: SwiftChatVersion.current, maxUploadBytes: configuration.maxUploadBytes,
            imageTypes: ContentSniffer.imageTypes, filesAllowed: true, maxAttachments: AttachmentRules.maxPerMessage,
            maxMessageBytes: configuration.maxMessageBytes, registration: configuration.registration)
    }

    func register(on api: any RoutesBuilder) {
        let limits = self.limits
        api.on(.config) { _ in Response.json(limits) }
    }
}
