import ChatCore
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket

/// The gorilla/websocket relay of the star-sign tutorial: every frame any `/echo` client sends goes, unchanged
/// (same opcode, same bytes), to every `/echo` client, the sender included. Nothing is parsed; on one node nothing
/// is stored. With several nodes, each frame also goes to the other nodes' clients through the database
/// (``EchoPeers``: `PostgresEchoRelay`).
///
/// The registry is a lock-protected dictionary: connections on any event loop join, leave and broadcast, and
/// each write is handed to the recipient's own event loop, so one sender's frames keep their order everywhere.
final class EchoRelay: EchoAudience {
    private let connections = NIOLockedValueBox<[ObjectIdentifier: WebSocketConnection]>([:])
    private let peers = NIOLockedValueBox<(any EchoPeers)?>(nil)

    /// From now on, frames sent here also go to `peers`.
    func link(_ peers: any EchoPeers) {
        self.peers.withLockedValue { $0 = peers }
    }

    func add(_ connection: WebSocketConnection) {
        self.connections.withLockedValue { $0[ObjectIdentifier(connection)] = connection }
    }

    func remove(_ connection: WebSocketConnection) {
        _ = self.connections.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    /// A frame a client of this node sent: to every client here, and to the other nodes.
    func broadcast(_ payload: ByteBuffer, kind: EchoFrameKind) {
        self.deliverHere(payload, kind: kind)
        self.peers.withLockedValue { $0 }?.forward(payload, kind: kind)
    }

    /// A frame to every client of this node (one a client here sent, or one from another node).
    func deliverHere(_ payload: ByteBuffer, kind: EchoFrameKind) {
        let opcode: WebSocketOpcode = kind == .binary ? .binary : .text
        let recipients = self.connections.withLockedValue { Array($0.values) }
        for recipient in recipients {
            // On the recipient's own loop (the sender, at least) write now: a frame later in the same read may
            // fail the connection, and the echo of the valid frames before it must go out first.
            if recipient.eventLoop.inEventLoop {
                recipient.send(payload, opcode: opcode)
                recipient.flush()
            } else {
                recipient.eventLoop.execute {
                    recipient.send(payload, opcode: opcode)
                    recipient.flush()
                }
            }
        }
    }
}

/// One `/echo` connection.
final class EchoSession: WebSocketSession {
    private let connection: WebSocketConnection
    private let relay: EchoRelay

    init(connection: WebSocketConnection, relay: EchoRelay) {
        self.connection = connection
        self.relay = relay
        relay.add(connection)
    }

    func didReceive(_ message: WebSocketMessage) {
        switch message {
        case .text(_, let bytes): self.relay.broadcast(bytes, kind: .text)
        case .binary(let bytes): self.relay.broadcast(bytes, kind: .binary)
        }
    }

    func didClose() {
        self.relay.remove(self.connection)
    }
}

/// `/echo` frames are relayed as they came, never rendered from room events.
final class VerbatimRenderer: EventRenderer {
    func render(_ event: RoomEvent) -> ByteBuffer? { nil }
}
