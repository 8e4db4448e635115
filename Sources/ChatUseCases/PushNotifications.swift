import ChatCore
import ChatProtocol
import Crypto
import Foundation

/// Web Push for people who are away (PROTOCOL.md §9.11): for each message this node commits, each member whose level
/// asks for it (`all`, or `mentions` and mentioned) and who has no live connection on any node gets one push per
/// subscription. *Exactly one node sends:* the one that committed the message, told by its rooms
/// (``CommitObserver``); other nodes only deliver it.
///
/// Off the path of a message: the rooms hand their batches over and go on; a bounded buffer holds them (past it the
/// oldest are dropped), and while no account has a subscription at all, a batch costs one question a second at most.
public final class PushNotifications: CommitObserver {
    /// What the notifications say: the text, or only that there is a message (`--push-content hidden`).
    public enum Content: String, Sendable {
        case shown
        case hidden
    }

    /// Active once any account has a subscription.
    private let batches: CommittedBatches

    public init(bufferedBatches: Int = 10_000) {
        self.batches = CommittedBatches(buffered: bufferedBatches)
    }

    public func committed(_ events: [StoredMessage]) {
        self.batches.add(events)
    }

    /// Someone subscribed on this node: messages count from now.
    public func subscribed() {
        self.batches.activate()
    }

    /// The dependencies of ``run(_:)``, known once the server is wired.
    public struct Context: Sendable {
        let audience: any PushAudience
        let presence: Presence
        let directory: any RoomDirectory
        let sending: any PushSending
        let content: Content
        let publicURL: @Sendable () -> String

        public init(
            audience: any PushAudience, presence: Presence, directory: any RoomDirectory, sending: any PushSending,
            content: Content, publicURL: @escaping @Sendable () -> String
        ) {
            self.audience = audience
            self.presence = presence
            self.directory = directory
            self.sending = sending
            self.content = content
            self.publicURL = publicURL
        }
    }

    /// Sends the pushes of the batches committed from now on, until cancelled.
    public func run(_ context: Context) async {
        for await batch in self.batches.batches {
            guard await self.batches.isActive(asking: { (try? await context.audience.anySubscriptions()) ?? false })
            else { continue }
            for event in batch where event.kind == .message && !event.deleted {
                try? await self.notify(about: event, context)
            }
        }
    }

    private func notify(about event: StoredMessage, _ context: Context) async throws {
        let recipients = try await context.audience.recipients(in: event.room, except: event.sender.id)
        guard !recipients.isEmpty, let room = try await context.directory.room(event.room) else { return }
        let away = Set(recipients.map(\.subscription.account)).subtracting(
            await context.presence.online(among: Set(recipients.map(\.subscription.account))))
        for recipient in recipients where away.contains(recipient.subscription.account) {
            let mentioned = event.mentions.all || event.mentions.accounts.contains(recipient.subscription.account)
            switch recipient.level ?? .default(for: room.kind) {
            case .all: break
            case .mentions where mentioned: break
            case .mentions, .none: continue
            }
            await context.sending.send(
                PushMessage(
                    payload: try self.payload(event, room: room, context), urgent: room.kind == .direct || mentioned,
                    topic: Self.topic(of: room.id)),
                to: recipient.subscription)
        }
    }

    /// `{"room","seq","title","body","url"}`, what the service worker shows.
    private func payload(_ event: StoredMessage, room: RoomInfo, _ context: Context) throws -> Data {
        struct Payload: Encodable {
            let room: String
            let seq: Int64
            let title: String
            let body: String
            let url: String
        }
        let title = room.kind == .direct ? event.sender.name : "\(event.sender.name) · \(room.name ?? "")"
        let body: String =
            switch context.content {
            case .hidden: "New message"
            case .shown:
                event.text.isEmpty
                    ? event.attachments.map(\.name).joined(separator: ", ") : String(event.text.prefix(300))
            }
        return try JSONEncoder().encode(
            Payload(
                room: event.room.rawValue, seq: event.seq, title: title, body: body,
                url: "\(context.publicURL())/#/chat/\(event.room.rawValue)/\(event.seq)"))
    }

    /// A room's `Topic`: at most 32 characters of the URL-safe alphabet (RFC 8030 §5.4), so a hash of its id.
    static func topic(of room: RoomID) -> String {
        String(Data(SHA256.hash(data: Data(room.rawValue.utf8))).base64URL.prefix(32))
    }
}
