import NIOCore

/// Recognises the recordings browsers make for voice messages from their first bytes (the sniffing prefix, 64 KiB):
/// Opus in Ogg (Firefox), Opus in WebM (Chromium) and MP4 with a sound track (Safari). Anything with a video track
/// is not a voice message.
enum AudioSniffer {
    static func contentType(of bytes: ByteBuffer) -> String? {
        let prefix = bytes.readableBytesView
        if Self.isOggOpus(prefix) { return "audio/ogg" }
        if Self.isWebMAudio(prefix) { return "audio/webm" }
        if Self.isMP4Audio(prefix) { return "audio/mp4" }
        return nil
    }

    /// An Ogg page (`OggS`) whose first packet is an Opus identification header (`OpusHead`, RFC 7845 §5.1).
    private static func isOggOpus(_ bytes: ByteBufferView) -> Bool {
        Self.starts(bytes, with: "OggS") && Self.contains(bytes.prefix(64), "OpusHead")
    }

    /// An EBML document of type `webm` (its header is in the first bytes) with an Opus track and no video codec.
    private static func isWebMAudio(_ bytes: ByteBufferView) -> Bool {
        Self.starts(bytes, with: [0x1A, 0x45, 0xDF, 0xA3]) && Self.contains(bytes.prefix(64), "webm")
            && Self.contains(bytes, "A_OPUS") && !Self.contains(bytes, "V_VP") && !Self.contains(bytes, "V_MPEG")
            && !Self.contains(bytes, "V_AV1")
    }

    /// An ISO media file (`ftyp` box first) whose handlers include sound and no video.
    private static func isMP4Audio(_ bytes: ByteBufferView) -> Bool {
        guard bytes.count >= 12, Self.contains(bytes.dropFirst(4).prefix(4), "ftyp") else { return false }
        return Self.contains(bytes, "soun") && !Self.contains(bytes, "vide")
    }

    private static func starts(_ bytes: ByteBufferView, with text: String) -> Bool {
        Self.starts(bytes, with: Array(text.utf8))
    }

    private static func starts(_ bytes: ByteBufferView, with prefix: [UInt8]) -> Bool {
        bytes.starts(with: prefix)
    }

    private static func contains<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard let first = needle.first else { return true }
        var index = bytes.startIndex
        while let found = bytes[index...].firstIndex(of: first) {
            if bytes[found...].starts(with: needle) { return true }
            index = bytes.index(after: found)
        }
        return false
    }
}
