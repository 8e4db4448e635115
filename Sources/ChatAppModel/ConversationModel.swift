import ChatClient
import ChatProtocol
import Foundation
import Observation

/// One bubble of the conversation: a stored message, or one of mine still on its way.
public struct MessageItem: Sendable, Equatable, Identifiable {
    /// Where a message of mine stands.
    public enum Delivery: Sendable, Equatable {
        /// Stored by the server (every message from others is).
        case sent
        /// Waiting for the server: offline, or in flight.
        case pending
        /// Refused; ``ConversationModel/retry(_:)`` sends it again under the same `clientMsgID`.
        case failed(String)
    }

    /// `seq-N` for stored messages, `pending-<clientMsgID>` for mine on their way.
    public var id: String
    /// The stored message (nil while pending).
    public var message: MessagePayload?
    /// The text shown.
    public var text: String
    /// The sender's name.
    public var sender: String
    /// Whether I sent it (a bubble on the right).
    public var isMine: Bool
    /// Delivery state of my messages.
    public var delivery: Delivery
    /// The `clientMsgID` of a message of mine not yet confirmed.
    public var clientMsgID: String?
}

/// One open conversation: the messages, my pending sends, the autoscroll decision, paging and typing.
@MainActor
@Observable
public final class ConversationModel {
    /// The room.
    public let room: String
    /// Me.
    public let me: UUID
    /// Bubbles, oldest first: stored messages, then my pending ones.
    public var items: [MessageItem] { self.timeline.messages.map(self.item) + self.pending }
    /// Set by the view: whether the reader sees the bottom of the list.
    public var isAtBottom = true {
        didSet {
            if self.isAtBottom {
                self.unseenCount = 0
                self.markReadIfAtBottom()
            }
        }
    }
    /// The "new messages" pill: how many arrived while the reader was scrolled up (0 hides it).
    public private(set) var unseenCount = 0
    /// The id the view should scroll to, with a counter so the same id twice still scrolls.
    public private(set) var scrollRequest: (id: String, serial: Int)?
    /// Whether older messages exist on the server.
    public private(set) var hasMoreHistory = true
    /// Whether a page is loading (the view shows a spinner at the top).
    public private(set) var isLoadingOlder = false
    /// The last history error, for a retry button.
    public private(set) var historyError: String?

    private(set) var timeline = Timeline()
    private var pending: [MessageItem] = []
    private var typingUntil: [UUID: (name: String, until: ContinuousClock.Instant)] = [:]
    private let backend: any ChatBackend
    private var serial = 0

    /// A conversation of `room` for user `me`.
    public init(room: String, me: UUID, backend: any ChatBackend) {
        self.room = room
        self.me = me
        self.backend = backend
    }

    // MARK: Events

    /// Applies one client event (those of other rooms are ignored).
    public func apply(_ event: ChatEvent) {
        switch event {
        case .message(let message, let clientMsgID) where message.room == self.room:
            self.typingUntil[message.sender.id] = nil
            if let clientMsgID { self.pending.removeAll { $0.clientMsgID == clientMsgID } }
            guard self.timeline.apply(message) != nil, message.eventKind == .message else { return }
            let isMine = message.sender.id == self.me
            switch AutoscrollPolicy.decide(isAtBottom: self.isAtBottom, isMine: isMine) {
            case .follow:
                self.requestScroll(to: "seq-\(message.seq)")
                self.markReadIfAtBottom()
            case .showPill:
                self.unseenCount += 1
            }
        case .typing(let room, let user) where room == self.room && user.id != self.me:
            self.typingUntil[user.id] = (user.name, .now + .seconds(5))
        case .resumed(let room, _, let complete) where room == self.room && !complete:
            // Too much was missed to replay: reload the newest page (PROTOCOL.md §8.2).
            Task { await self.loadLatest() }
        default:
            break
        }
    }

    /// Who is typing at `now` (each for 5 s after their last `typing`, §9.4), sorted; "ann is typing…" in the view.
    public func typingNames(at now: ContinuousClock.Instant = .now) -> [String] {
        self.typingUntil.values.filter { $0.until > now }.map(\.name).sorted()
    }

    /// The reader tapped the pill: scroll to the newest message.
    public func jumpToLatest() {
        if let last = self.items.last { self.requestScroll(to: last.id) }
        self.isAtBottom = true
    }

    // MARK: Sending

    /// Sends `text`: it shows at once as pending, then as sent (or failed, with a retry).
    public func send(_ text: String, replyTo: Int64? = nil) {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return }
        let clientMsgID = ChatClient.makeClientMsgID()
        self.pending.append(
            MessageItem(
                id: "pending-\(clientMsgID)", message: nil, text: text, sender: "", isMine: true, delivery: .pending,
                clientMsgID: clientMsgID))
        self.requestScroll(to: "pending-\(clientMsgID)")
        self.deliver(text, replyTo: replyTo, clientMsgID: clientMsgID)
    }

    /// Sends a failed message again under its first `clientMsgID`, so it cannot be stored twice.
    public func retry(_ item: MessageItem) {
        guard let clientMsgID = item.clientMsgID,
            let index = self.pending.firstIndex(where: { $0.clientMsgID == clientMsgID })
        else { return }
        self.pending[index].delivery = .pending
        self.deliver(item.text, replyTo: nil, clientMsgID: clientMsgID)
    }

    /// Says I am typing (the client and the server throttle it).
    public func userTyped() {
        Task { [backend, room] in await backend.typing(in: room) }
    }

    private func deliver(_ text: String, replyTo: Int64?, clientMsgID: String) {
        let backend = self.backend
        let room = self.room
        Task {
            do {
                let ack = try await backend.send(
                    text, to: room, replyTo: replyTo, attachments: [], clientMsgID: clientMsgID)
                self.acknowledged(clientMsgID: clientMsgID, ack: ack)
            } catch {
                self.failed(clientMsgID: clientMsgID, reason: String(describing: error))
            }
        }
    }

    private func acknowledged(clientMsgID: String, ack: Ack) {
        // Usually the message event came first and removed the pending item; if not, it is sent all the same.
        if let index = self.pending.firstIndex(where: { $0.clientMsgID == clientMsgID }) {
            if self.timeline.message(seq: ack.seq) != nil {
                self.pending.remove(at: index)
            } else {
                self.pending[index].delivery = .sent
            }
        }
    }

    private func failed(clientMsgID: String, reason: String) {
        guard let index = self.pending.firstIndex(where: { $0.clientMsgID == clientMsgID }) else { return }
        self.pending[index].delivery = .failed(reason)
    }

    // MARK: History

    /// Loads the newest page (on open, or after a gap too large to replay).
    public func loadLatest() async {
        await self.loadPage(before: nil)
        if let last = self.items.last { self.requestScroll(to: last.id) }
        self.markReadIfAtBottom()
    }

    /// Loads the page before the oldest loaded message (the view calls it when the top row appears).
    public func loadOlder() async {
        guard self.hasMoreHistory, !self.isLoadingOlder else { return }
        await self.loadPage(before: self.timeline.oldestSeq)
    }

    private func loadPage(before: Int64?) async {
        self.isLoadingOlder = true
        defer { self.isLoadingOlder = false }
        do {
            let page = try await self.backend.history(room: self.room, before: before, limit: 50)
            self.timeline.apply(page: page.messages)
            if before != nil || self.timeline.messages.count <= page.messages.count {
                self.hasMoreHistory = page.hasMore
            }
            self.historyError = nil
        } catch {
            self.historyError = String(describing: error)
        }
    }

    private func markReadIfAtBottom() {
        guard self.isAtBottom, let last = self.timeline.messages.last else { return }
        Task { [backend, room] in await backend.markRead(room: room, seq: last.seq) }
    }

    private func requestScroll(to id: String) {
        self.serial += 1
        self.scrollRequest = (id, self.serial)
    }

    private func item(_ message: MessagePayload) -> MessageItem {
        MessageItem(
            id: "seq-\(message.seq)", message: message, text: message.deleted == true ? "" : message.text,
            sender: message.sender.name, isMine: message.sender.id == self.me, delivery: .sent, clientMsgID: nil)
    }
}
