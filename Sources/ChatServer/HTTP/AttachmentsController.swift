import ChatCore
import ChatProtocol
import ChatUseCases
import Foundation
import Metrics
import Vapor

/// `POST /api/v1/attachments` and `GET /api/v1/attachments/{id}` (PROTOCOL.md §9.3).
struct AttachmentsController: Sendable {
    let attachments: Attachments
    let files: any AttachmentBytes
    let maxUploadBytes: Int
    let uploads: UploadSlots

    /// How long one upload may take from its first byte to its last.
    static let uploadDeadline = Duration.seconds(600)

    func register(on api: any RoutesBuilder, authenticated: any RoutesBuilder) {
        authenticated.on(.upload, body: .stream, use: self.upload)
        api.on(.download, use: self.download)
    }

    /// `POST /attachments[?name=]` with the raw bytes, or a multipart form whose part `file` is the file → 201 the
    /// attachment. The body streams to a temporary file; nothing of it is kept in memory.
    @Sendable func upload(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        guard self.uploads.begin(me.id) else {
            throw APIError.rateLimited(
                .uploads, "You have \(UploadSlots.perAccount) uploads in progress; try again in", .seconds(1))
        }
        defer { self.uploads.end(me.id) }
        let allowance = try await self.attachments.allowance(for: me.id)
        let received = try await self.receive(request)
        do {
            let attachment = try self.attachments.check(
                Attachments.Upload(
                    name: received.name, size: received.size, prefix: received.prefix,
                    declaredImage: received.declaredType?.type == "image"),
                allowance: allowance)
            try await self.files.keep(received)
            try await self.attachments.record(attachment, uploader: me.id, sha256: received.sha256)
            request.application.serverMetrics.uploads.increment()
            request.application.serverMetrics.uploadBytes.increment(by: received.size)
            return .json(attachment.payload, status: .created)
        } catch {
            try? FileManager.default.removeItem(atPath: received.temporaryPath)
            throw error
        }
    }

    /// The body in a temporary file, within the size limit and the upload deadline.
    private func receive(_ request: Request) async throws -> ReceivedUpload {
        let files = self.files
        let limit = self.maxUploadBytes
        do {
            return try await withThrowingTaskGroup(of: ReceivedUpload?.self) { group in
                group.addTask {
                    try await UploadReceiver.receive(
                        request, into: files.temporaryDirectory, maxBytes: limit, threadPool: files.threadPool)
                }
                group.addTask {
                    try await Task.sleep(for: Self.uploadDeadline)
                    return nil
                }
                defer { group.cancelAll() }
                guard let received = try await group.next() ?? nil else { throw UploadFailure.timedOut }
                return received
            }
        } catch let failure as UploadFailure {
            switch failure {
            case .tooLarge: throw Self.tooLarge(limit)
            case .noFilePart, .malformedMultipart:
                throw APIError.badRequest(.invalidBody, "A multipart upload needs a part named \"file\".")
            case .timedOut:
                throw APIError(status: .requestTimeout, code: .timedOut, message: "The upload took too long.")
            }
        }
    }

    /// `GET /attachments/{id}` with a Bearer header or `?token=` → the bytes, to those who may read them.
    @Sendable func download(_ request: Request) async throws -> Response {
        let stored = try await self.attachments.readable(
            request.parameters.get("id").flatMap(UUID.init(uuidString:)),
            token: request.bearerToken(allowingQuery: true))
        let attachment = stored.attachment
        if let range = request.headers.range, !Self.isSatisfiable(range, size: attachment.size) {
            throw APIError(
                status: .rangeNotSatisfiable, code: .rangeNotSatisfiable,
                message: "The attachment has \(attachment.size) bytes; the range asked for is outside them.",
                headers: ["Content-Range": "bytes */\(attachment.size)"])
        }
        let response = try await self.files.response(
            for: stored, mediaType: HTTPMediaType(contentType: attachment.contentType), request: request)
        response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        response.headers.replaceOrAdd(name: .contentDisposition, value: Self.disposition(attachment))
        response.headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=31536000, immutable")
        return response
    }

    /// Whether any range of a `Range` header falls inside `size` bytes (RFC 9110 §14.1.2).
    private static func isSatisfiable(_ range: HTTPHeaders.Range, size: Int64) -> Bool {
        guard range.unit == .bytes else { return false }
        return range.ranges.contains { value in
            switch value {
            case .start(let start): Int64(start) < size
            case .tail(let length): length > 0 && size > 0
            case .within(let start, let end): start <= end && Int64(start) < size
            }
        }
    }

    static func tooLarge(_ limit: Int) -> APIError {
        APIError(status: .payloadTooLarge, code: .tooLarge, message: "An upload is at most \(limit) bytes.")
    }

    /// `inline` for images, `attachment` for anything else, with the name in RFC 5987 form.
    private static func disposition(_ attachment: Attachment) -> String {
        let encoded = attachment.name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "file"
        let ascii = String(
            attachment.name.unicodeScalars.map { $0.isASCII && $0 != "\"" && $0 != "\\" ? Character($0) : "_" })
        return "\(attachment.isImage ? "inline" : "attachment"); filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
    }
}

extension HTTPMediaType {
    /// A media type from a `type/subtype` string.
    fileprivate init(contentType: String) {
        let parts = contentType.split(separator: "/", maxSplits: 1).map(String.init)
        self.init(type: parts.first ?? "application", subType: parts.count > 1 ? parts[1] : "octet-stream")
    }
}
