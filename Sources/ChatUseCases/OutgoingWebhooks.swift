import ChatCore
import ChatProtocol
import Crypto
import Foundation

/// Sends a bot's webhook what is meant for it (PROTOCOL.md §9.13): each message this node commits that mentions the
/// bot by name, or that someone sends it in a direct room, is POSTed to its webhook, signed, once; a reply in the
/// answer is posted as the bot's message in that room. *Exactly one node sends:* the one that committed the message,
/// told by its rooms (``CommitObserver``), as for Web Push.
///
/// Off the path of a message: rooms hand their batches over and go on; a bounded buffer holds them. While no bot has a
/// webhook, a batch costs one question a second at most.
public final class OutgoingWebhooks: CommitObserver {
    /// Active once any bot has a webhook.
    private let batches: CommittedBatches

    public init(bufferedBatches: Int = 10_000) {
        self.batches = CommittedBatches(buffered: bufferedBatches)
    }

    public func committed(_ events: [StoredMessage]) {
        self.batches.add(events)
    }

    /// A bot's webhook was set on this node: messages count from now.
    public func webhookSet() {
        self.batches.activate()
    }

    /// What a webhook answered: its status and, for a `200`, the reply it holds, if any.
    public struct Answer: Sendable {
        public let status: Int
        public let reply: String?

        public init(status: Int, reply: String?) {
            self.status = status
            self.reply = reply
        }
    }

    /// The dependencies of ``run(_:)``, known once the server is wired.
    public struct Context: Sendable {
        let store: any BotStore
        let directory: any RoomDirectory
        let hub: Hub
        let maxMessageBytes: Int
        /// How clients reach this server, for the events' `replyURL`.
        let publicURL: @Sendable () -> String
        /// POSTs `body` with its signature header value to `url`; an error when no answer came (refused, timed out).
        let post: @Sendable (_ body: Data, _ signature: String, _ url: String) async throws -> Answer
        let logger: @Sendable (String) -> Void

        public init(
            store: any BotStore, directory: any RoomDirectory, hub: Hub, maxMessageBytes: Int,
            publicURL: @escaping @Sendable () -> String,
            post: @escaping @Sendable (Data, String, String) async throws -> Answer,
            logger: @escaping @Sendable (String) -> Void
        ) {
            self.store = store
            self.directory = directory
            self.hub = hub
            self.maxMessageBytes = maxMessageBytes
            self.publicURL = publicURL
            self.post = post
            self.logger = logger
        }
    }

    /// Delivers the messages of the batches committed from now on, until cancelled.
    public func run(_ context: Context) async {
        for await batch in self.batches.batches {
            guard await self.batches.isActive(asking: { (try? await context.store.anyWebhook()) ?? false }) else {
                continue
            }
            for event in batch where event.kind == .message && !event.deleted && event.sender.via != .webhook {
                do {
                    try await self.deliver(event, context)
                } catch {
                    context.logger("outgoing webhook: \(error)")
                }
            }
        }
    }

    /// The bots the message is meant for: those it mentions by name, and in a direct room the other member.
    private func deliver(_ event: StoredMessage, _ context: Context) async throws {
        guard let room = try await context.directory.room(event.room) else { return }
        var addressed = event.mentions.accounts
        if room.kind == .direct, let pair = room.pair { addressed += pair }
        addressed.removeAll { $0 == event.sender.id && event.sender.via == nil }
        guard !addressed.isEmpty else { return }
        for webhook in try await context.store.webhooks(of: addressed) {
            await self.send(event, in: room, to: webhook, context)
        }
    }

    private func send(_ event: StoredMessage, in room: RoomInfo, to webhook: BotWebhook, _ context: Context) async {
        let payload = OutgoingWebhookEvent(
            message: .init(room: event.room.rawValue, seq: event.seq, text: event.text, sender: event.sender.payload),
            room: .init(id: room.id.rawValue, name: room.name, kind: room.kind.rawValue),
            replyURL: BotReplies.url(for: webhook, in: room.id, publicURL: context.publicURL(), now: Date()))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var status: Int?
        var outcome: String
        do {
            let body = try encoder.encode(payload)
            let answer = try await context.post(body, Self.signature(of: body, key: webhook.secret), webhook.url)
            status = answer.status
            if (200..<300).contains(answer.status), let reply = answer.reply, !reply.allSatisfy(\.isWhitespace) {
                outcome = try await self.post(reply, as: webhook, answering: event, context)
            } else {
                outcome = (200..<300).contains(answer.status) ? "delivered" : "failed: status \(answer.status)"
            }
        } catch {
            outcome = "failed: \(error)"
        }
        let delivery = BotDelivery(
            bot: webhook.bot, room: event.room, seq: event.seq, status: status, outcome: outcome, date: Date())
        try? await context.store.record(delivery, keep: Bots.keptDeliveries)
    }

    /// Posts the bot's reply, once per message answered (its `clientMsgID` names that message).
    private func post(_ reply: String, as webhook: BotWebhook, answering event: StoredMessage, _ context: Context)
        async throws -> String
    {
        let text = MessageText.removingControlCharacters(reply)
        guard text.utf8.count <= context.maxMessageBytes else {
            return "failed: the reply is over \(context.maxMessageBytes) bytes"
        }
        let draft = MessageDraft(
            sender: Sender(name: webhook.username, id: webhook.bot), body: .message(text: text),
            clientMsgID: "re-\(event.room.rawValue.prefix(40))-\(event.seq)")
        do {
            _ = try await context.hub.room(event.room).commit(draft)
            return "replied"
        } catch {
            return "failed: the reply was refused: \(error)"
        }
    }

    /// `sha256=` and the HMAC-SHA256 of the body under the bot's key, in lowercase hex.
    static func signature(of body: Data, key: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data(key.utf8)))
        return "sha256=" + code.map { String(format: "%02x", $0) }.joined()
    }
}
