import NIOCore
import NIOWebSocket

/// Checks the payload of a close frame a peer sent (RFC 6455 §5.5.1, §7.4).
enum CloseFrameCheck {
    enum Outcome: Equatable {
        /// Well-formed; the status code to echo, `nil` when the peer sent none.
        case valid(WebSocketErrorCode?)
        /// Malformed; fail the connection with this code.
        case invalid(WebSocketErrorCode)
    }

    static func check(_ payload: ByteBuffer) -> Outcome {
        var payload = payload
        if payload.readableBytes == 0 { return .valid(nil) }
        guard let raw = payload.readInteger(as: UInt16.self) else { return .invalid(.protocolError) }
        guard self.isValidReceivedCode(raw) else { return .invalid(.protocolError) }
        guard payload.validatedUTF8() != nil else { return .invalid(.dataInconsistentWithMessage) }
        return .valid(WebSocketErrorCode(codeNumber: Int(raw)))
    }

    /// Codes a peer may put in a close frame: the registered ones (1005, 1006 and 1015 are for reporting only,
    /// never sent) and the ranges for libraries and applications.
    static func isValidReceivedCode(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
