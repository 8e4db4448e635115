import AsyncHTTPClient
import ChatCore
import ChatProtocol
import ChatUseCases
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Fetches what a link preview shows (PROTOCOL.md §9.15) through the guarded client: the page, `text/html` only,
/// at most ``maxPageBytes`` read, within ``timeout``, ``maxRedirects`` redirects each checked; and its image, checked
/// as an upload is (its type from its bytes, at most `--max-upload-bytes`), kept as an attachment, never hot-linked.
struct LinkPreviewFetcher: Sendable {
    let http: GuardedHTTPClient
    let attachments: Attachments
    /// Where this node writes a fetched image before keeping it (``AttachmentFiles/temporaryDirectory``).
    let receivingDirectory: String
    let threadPool: NIOThreadPool
    let maxImageBytes: Int

    static let timeout: TimeAmount = .seconds(5)
    static let maxRedirects = 3
    static let maxPageBytes = 1 << 20

    /// The page's description; `nil` when it is not an HTML page that answered `200`.
    func page(_ url: String) async throws -> LinkPreviewPage? {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "text/html,application/xhtml+xml")
        request.headers.add(name: "User-Agent", value: Self.userAgent)
        let response = try await self.fetch(request, maxBytes: Self.maxPageBytes)
        let type = response.headers.first(name: "Content-Type")?.lowercased() ?? ""
        guard response.status == .ok, type.hasPrefix("text/html") || type.hasPrefix("application/xhtml+xml") else {
            return nil
        }
        return LinkPreviewPage.parse(
            String(decoding: response.body.readableBytesView, as: UTF8.self), url: response.url)
    }

    /// The image at `url` kept as an attachment of `uploader`; `nil` when it is no PNG, JPEG, GIF or WebP image, or
    /// larger than uploads may be.
    func image(_ url: String, uploader: UUID) async throws -> Attachment? {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "image/*")
        request.headers.add(name: "User-Agent", value: Self.userAgent)
        let response = try await self.fetch(request, maxBytes: self.maxImageBytes + 1)
        let bytes = response.body
        guard response.status == .ok, bytes.readableBytes > 0, bytes.readableBytes <= self.maxImageBytes else {
            return nil
        }
        let detected = ContentSniffer.detect(bytes)
        guard detected.isImage else { return nil }
        let name = response.url.lastPathComponent.isEmpty ? "preview" : response.url.lastPathComponent
        let attachment = Attachment(
            id: UUID(), name: String(name.prefix(100)), contentType: detected.contentType,
            size: Int64(bytes.readableBytes), width: detected.width, height: detected.height)
        let directory = self.receivingDirectory
        let path = URL(fileURLWithPath: directory).appendingPathComponent("preview-\(attachment.id)").path
        try await self.threadPool.runIfActive {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes.readableBytesView)) else {
                throw CocoaError(.fileWriteUnknown)
            }
        }
        do {
            try await self.attachments.keep(
                attachment, fileAt: path, sha256: SHA256.hash(data: Data(bytes.readableBytesView)).hex,
                uploader: uploader)
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
        return attachment
    }

    private func fetch(_ request: HTTPClientRequest, maxBytes: Int) async throws -> GuardedHTTPClient.Response {
        try await self.http.execute(
            request, timeout: Self.timeout, maxRedirects: Self.maxRedirects, maxBodyBytes: maxBytes)
    }

    private static let userAgent = "SwiftChat/\(SwiftChatVersion.current) (link preview)"
}
