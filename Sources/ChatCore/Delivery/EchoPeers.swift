import NIOCore

/// The kind of an `/echo` frame, which every recipient gets with the opcode it was sent with.
public enum EchoFrameKind: Sendable {
    case text, binary
}

/// How `/echo` frames reach the clients of other nodes; called on the sender's event loop, in the order frames
/// arrive, so it must not block.
public protocol EchoPeers: Sendable {
    func forward(_ payload: ByteBuffer, kind: EchoFrameKind)
}

/// This node's `/echo` clients, which the frames other nodes' clients sent are delivered to.
public protocol EchoAudience: Sendable {
    func deliverHere(_ payload: ByteBuffer, kind: EchoFrameKind)
}
