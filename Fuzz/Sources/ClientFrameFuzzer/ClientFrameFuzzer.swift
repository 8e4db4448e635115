import ChatProtocol
import Foundation
import FuzzSupport

/// Input: the text of one `/api/v1/ws` frame, decoded as `ModernSession` does
/// (`JSONDecoder().decode(ClientMessage.self, from:)`).
///
/// Checks that a decoded frame survives encoding and decoding again unchanged, so what the server logs or echoes
/// back (`ref`, `clientMsgID`) is what the client sent.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClientFrame(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let frame = try? JSONDecoder().decode(ClientMessage.self, from: Data(input.rest)) else { return 0 }
    do {
        let again = try JSONDecoder().decode(ClientMessage.self, from: JSONEncoder().encode(frame))
        invariant(again == frame, "\(frame) came back as \(again)")
    } catch {
        invariant(false, "\(frame) does not survive encoding: \(error)")
    }
    return 0
}
