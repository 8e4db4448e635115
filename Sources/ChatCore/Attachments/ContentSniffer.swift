import NIOCore

/// Recognises images and voice recordings from their first bytes, never from what a client declared (PROTOCOL.md
/// §9.3).
public enum ContentSniffer {
    /// What the bytes are.
    public struct Detected: Equatable, Sendable {
        public var contentType: String
        public var width: Int?
        public var height: Int?

        public var isImage: Bool { self.width != nil }
        public var isAudio: Bool { ContentSniffer.audioTypes.contains(self.contentType) }
    }

    /// The image types recognised; anything else is a download.
    public static let imageTypes = ["image/gif", "image/jpeg", "image/png", "image/webp"]
    /// The audio recognised: what browsers' `MediaRecorder` makes (Opus in Ogg or WebM; AAC in MP4 on Safari).
    public static let audioTypes = ["audio/mp4", "audio/ogg", "audio/webm"]
    public static let download = "application/octet-stream"

    /// The image type and size when the bytes are a PNG, JPEG, GIF or WebP image with a readable size; the audio
    /// type when they are a recording with one audio track and no video; otherwise ``download``.
    public static func detect(_ bytes: ByteBuffer) -> Detected {
        let image = Self.png(bytes) ?? Self.gif(bytes) ?? Self.jpeg(bytes) ?? Self.webp(bytes)
        let audio = image == nil ? AudioSniffer.contentType(of: bytes).map(Detected.init(contentType:)) : nil
        return image ?? audio ?? Detected(contentType: Self.download)
    }

    private static func starts(_ bytes: ByteBuffer, with prefix: [UInt8], at offset: Int = 0) -> Bool {
        bytes.getBytes(at: bytes.readerIndex + offset, length: prefix.count) == prefix
    }

    private static func image(_ type: String, _ width: Int, _ height: Int) -> Detected? {
        width > 0 && height > 0 ? Detected(contentType: type, width: width, height: height) : nil
    }

    private static func png(_ bytes: ByteBuffer) -> Detected? {
        guard Self.starts(bytes, with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            Self.starts(bytes, with: Array("IHDR".utf8), at: 12),
            let width = bytes.getInteger(at: bytes.readerIndex + 16, as: UInt32.self),
            let height = bytes.getInteger(at: bytes.readerIndex + 20, as: UInt32.self)
        else { return nil }
        return Self.image("image/png", Int(width), Int(height))
    }

    private static func gif(_ bytes: ByteBuffer) -> Detected? {
        guard Self.starts(bytes, with: Array("GIF87a".utf8)) || Self.starts(bytes, with: Array("GIF89a".utf8)),
            let width = bytes.getInteger(at: bytes.readerIndex + 6, endianness: .little, as: UInt16.self),
            let height = bytes.getInteger(at: bytes.readerIndex + 8, endianness: .little, as: UInt16.self)
        else { return nil }
        return Self.image("image/gif", Int(width), Int(height))
    }

    /// Walks the JPEG markers to the first start-of-frame, which holds the size.
    private static func jpeg(_ bytes: ByteBuffer) -> Detected? {
        guard Self.starts(bytes, with: [0xFF, 0xD8, 0xFF]) else { return nil }
        var offset = bytes.readerIndex + 2
        while let prefix = bytes.getInteger(at: offset, as: UInt8.self), prefix == 0xFF,
            let marker = bytes.getInteger(at: offset + 1, as: UInt8.self)
        {
            if marker == 0xFF {
                offset += 1
                continue
            }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                offset += 2
                continue
            }
            guard let length = bytes.getInteger(at: offset + 2, as: UInt16.self), length >= 2 else { return nil }
            let isStartOfFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isStartOfFrame {
                guard let height = bytes.getInteger(at: offset + 5, as: UInt16.self),
                    let width = bytes.getInteger(at: offset + 7, as: UInt16.self)
                else { return nil }
                return Self.image("image/jpeg", Int(width), Int(height))
            }
            offset += 2 + Int(length)
        }
        return nil
    }

    private static func webp(_ bytes: ByteBuffer) -> Detected? {
        guard Self.starts(bytes, with: Array("RIFF".utf8)), Self.starts(bytes, with: Array("WEBP".utf8), at: 8) else {
            return nil
        }
        let base = bytes.readerIndex
        if Self.starts(bytes, with: Array("VP8 ".utf8), at: 12),
            let width = bytes.getInteger(at: base + 26, endianness: .little, as: UInt16.self),
            let height = bytes.getInteger(at: base + 28, endianness: .little, as: UInt16.self)
        {
            return Self.image("image/webp", Int(width & 0x3FFF), Int(height & 0x3FFF))
        }
        if Self.starts(bytes, with: Array("VP8L".utf8), at: 12),
            bytes.getInteger(at: base + 20, as: UInt8.self) == 0x2F,
            let bits = bytes.getInteger(at: base + 21, endianness: .little, as: UInt32.self)
        {
            return Self.image("image/webp", Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1)
        }
        if Self.starts(bytes, with: Array("VP8X".utf8), at: 12),
            let width = bytes.getBytes(at: base + 24, length: 3), let height = bytes.getBytes(at: base + 27, length: 3)
        {
            let value = { (b: [UInt8]) in Int(b[0]) | Int(b[1]) << 8 | Int(b[2]) << 16 }
            return Self.image("image/webp", value(width) + 1, value(height) + 1)
        }
        return nil
    }
}

extension ContentSniffer.Detected {
    init(contentType: String) {
        self.init(contentType: contentType, width: nil, height: nil)
    }
}
