import NIOCore
import NIOWebSocket

/// Fails the connection (close 1002) on frames RFC 6455 forbids and NIO's decoder lets through: reserved bits
/// set without a negotiated extension, reserved opcodes, and client frames without a mask (§5.1). Sits between
/// the frame decoder and the ``WebSocketMessageAssembler``, which drops the mask of the fragments it joins.
final class WebSocketFrameValidator: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    private var failed = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !self.failed else { return }
        let frame = Self.unwrapInboundIn(data)
        if Self.definedOpcodes.contains(frame.opcode) && !frame.rsv1 && !frame.rsv2 && !frame.rsv3
            && frame.maskKey != nil
        {
            context.fireChannelRead(data)
        } else {
            self.failed = true
            context.fireErrorCaught(ProtocolViolation.reservedBitsOpcodeOrMissingMask)
        }
    }

    private static let definedOpcodes: [WebSocketOpcode] = [
        .continuation, .text, .binary, .connectionClose, .ping, .pong,
    ]

    enum ProtocolViolation: Error {
        case reservedBitsOpcodeOrMissingMask
    }
}
