/// A valid PNG header of the given size (enough bytes for the server's sniffer; browsers need the rest).
public func pngBytes(width: UInt32, height: UInt32) -> [UInt8] {
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
    for value in [width, height] { bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
    return bytes + [8, 2, 0, 0, 0, 0, 0, 0, 0] + Array(repeating: 0, count: 32)
}

/// The start of an Ogg Opus recording (RFC 7845): the first page with its `OpusHead` packet, then `bytes` of audio.
public func oggOpusBytes(audio bytes: Int = 256) -> [UInt8] {
    let page: [UInt8] = Array("OggS".utf8) + [0, 2] + Array(repeating: 0, count: 20) + [1, 19]
    let head: [UInt8] = Array("OpusHead".utf8) + [1, 1, 0x38, 0x01, 0x80, 0xBB, 0, 0, 0, 0, 0]
    return page + head + Array(repeating: 0x55, count: bytes)
}

/// The start of a WebM file as Chromium's `MediaRecorder` writes one: the EBML header naming `webm`, then a track
/// with the Opus codec, and a VP8 video track too when `video`.
public func webmBytes(video: Bool = false) -> [UInt8] {
    let header: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84] + Array("webm".utf8)
    let audio: [UInt8] = [0x86, 0x86] + Array("A_OPUS".utf8)
    let videoTrack: [UInt8] = video ? [0x86, 0x85] + Array("V_VP8".utf8) : []
    return header + Array(repeating: 0, count: 32) + audio + videoTrack + Array(repeating: 0x33, count: 256)
}
