import ChatCore
import ChatProtocol
import ChatUseCases
import Foundation
import Metrics
import NIOCore
import NIOWebSocket

/// One connection to `/api/v1/ws`, on its event loop: decodes frames and hands them, in order, to the connection's
/// ``ModernWorker``, which does everything that needs to await (opening rooms, reading history), through the
/// connection's ``WorkerInbox``.
final class ModernSession: WebSocketSession {
    private let connection: WebSocketConnection
    private let worker: ModernWorker
    private let inbox: WorkerInbox
    private var expiry: Scheduled<Void>?

    private let context: ModernContext
    private let accountID: UUID
    private var registered = false

    init(connection: WebSocketConnection, context: ModernContext, signedIn: AuthenticatedAccount, rooms: [RoomID]) {
        self.connection = connection
        self.context = context
        self.accountID = signedIn.account.id
        self.inbox = WorkerInbox(channel: connection.channel)
        self.worker = ModernWorker(connection: connection, context: context, signedIn: signedIn, rooms: Set(rooms))
        // Checked again here, where it cannot race: the HTTP check before the upgrade only spares most clients
        // the upgrade.
        guard context.sessions.add(self.worker, for: signedIn.account.id, limit: context.maxSocketsPerAccount) else {
            connection.close(.policyViolation, reason: "too many connections for this account", waitForPeer: false)
            return
        }
        self.registered = true
        self.post(.opened)
        Self.send(HelloFrame(user: signedIn.account.profile, rooms: rooms.map(\.rawValue)), on: connection)
        self.expiry = connection.eventLoop.scheduleTask(
            in: .seconds(Int64(max(0, signedIn.expiresAt.timeIntervalSinceNow)))
        ) {
            connection.closeForRevokedToken()
        }
    }

    func didReceive(_ message: WebSocketMessage) {
        guard self.registered else { return }
        guard case .text(let text, _) = message else {
            Self.send(ErrorFrame(code: .badFrame, message: "Frames are JSON text.", ref: nil), on: self.connection)
            return
        }
        let data = Data(text.utf8)
        let frame: ClientMessage
        do {
            frame = try JSONDecoder().decode(ClientMessage.self, from: data)
        } catch {
            let reason =
                (error as? ClientMessage.UnknownType).map { "Unknown type \($0.type)." }
                ?? FrameEnvelope.reason(for: error)
            Self.send(
                ErrorFrame(code: .badFrame, message: reason, ref: FrameEnvelope.reference(in: data)),
                on: self.connection)
            return
        }
        if case .ping = frame {
            Self.send(PongFrame(), on: self.connection)
            return
        }
        guard self.post(.frame(frame)) else {
            self.connection.evict(.inboundBacklog, reason: "too many frames waiting; wait for answers")
            return
        }
    }

    func didClose() {
        self.expiry?.cancel()
        if self.registered {
            self.post(.closed)
            self.context.sessions.remove(self.worker, for: self.accountID)
        }
    }

    /// Hands an item to the worker, starting its task when none runs; `false` when the inbox refused a frame.
    @discardableResult
    private func post(_ item: WorkerInbox.Item) -> Bool {
        switch self.inbox.post(item) {
        case .queued: return true
        case .overflow: return false
        case .startWorker:
            let (worker, inbox) = (self.worker, self.inbox)
            self.context.background.run { await worker.work(through: inbox) }
            return true
        }
    }

    /// Writes one frame now (call on the connection's event loop).
    static func send(_ value: some Encodable, on connection: WebSocketConnection) {
        guard let frame = ModernRenderer.frame(value) else { return }
        connection.write(frame)
        connection.flush()
    }
}
