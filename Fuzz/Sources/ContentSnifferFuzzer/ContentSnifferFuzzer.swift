import ChatCoreSlice
import FuzzSupport
import NIOCore

/// Input: the first bytes of an upload (the server sniffs at most 64 KiB).
///
/// Checks that the answer is an image type with a positive size, a recording's type or a download with none, that
/// sizes fit their format's field, and that the answer does not depend on where the buffer's reader index stands.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContentSniffer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let bytes = input.rest
    let detected = ContentSniffer.detect(ByteBuffer(bytes: bytes))

    if detected.isImage {
        invariant(ContentSniffer.imageTypes.contains(detected.contentType), "image type \(detected.contentType)")
        let width = detected.width ?? 0
        let height = detected.height ?? 0
        invariant(width > 0 && height > 0, "image of \(width)×\(height)")
        // WebP's VP8X fields are 24 bits; every other format's are at most 32.
        invariant(width <= 1 << 32 && height <= 1 << 32, "image of \(width)×\(height)")
    } else if detected.isAudio {
        invariant(detected.width == nil && detected.height == nil, "a recording with a size")
    } else {
        invariant(detected.contentType == ContentSniffer.download, "\(detected.contentType) without a size")
        invariant(detected.height == nil, "a height without a width")
    }

    var shifted = ByteBuffer(repeating: 0xFF, count: 7)
    shifted.writeBytes(bytes)
    shifted.moveReaderIndex(forwardBy: 7)
    invariant(ContentSniffer.detect(shifted) == detected, "the answer depends on the reader index")
    return 0
}
