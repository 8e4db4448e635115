import NIOWebSocket

/// The frames RFC 6455 forbids and NIO's decoder lets through: reserved bits set without a negotiated extension,
/// reserved opcodes, and client frames without a mask (§5.1). Each fails the connection with 1002. Checked by
/// ``WebSocketConnectionHandler`` before ``WebSocketMessageAssembler`` drops the mask of the fragments it joins.
enum WebSocketFrameValidator {
    struct ProtocolViolation: Error {}

    static func check(_ frame: WebSocketFrame) throws(ProtocolViolation) {
        guard
            Self.definedOpcodes.contains(frame.opcode) && !frame.rsv1 && !frame.rsv2 && !frame.rsv3
                && frame.maskKey != nil
        else { throw ProtocolViolation() }
    }

    private static let definedOpcodes: [WebSocketOpcode] = [
        .continuation, .text, .binary, .connectionClose, .ping, .pong,
    ]
}
