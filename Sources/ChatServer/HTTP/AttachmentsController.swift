import ChatCore
import ChatProtocol
import ChatUseCases
import Foundation
import Metrics
import Vapor

/// `POST /api/v1/attachments` and `GET /api/v1/attachments/{id}` (PROTOCOL.md §9.3).
struct AttachmentsController: Sendable {
    let attachments: Attachments
    /// Where this node receives uploads (``AttachmentFiles/temporaryDirectory``), and the threads that write them.
    let receivingDirectory: String
    let threadPool: NIOThreadPool
    let maxUploadBytes: Int
    let uploads: UploadSlots

    /// How long one upload may take from its first byte to its last.
    static let uploadDeadline = Duration.seconds(600)

    func register(on api: any RoutesBuilder, authenticated: any RoutesBuilder) {
        authenticated.on(.upload, body: .stream, use: self.upload)
        api.on(.download, use: self.download)
    }

    /// `POST /attachments[?name=][&duration=]` with the raw bytes, or a multipart form whose part `file` is the file
    /// → 201 the attachment. The body streams to a temporary file; nothing of it is kept in memory.
    @Sendable func upload(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        let duration = try Self.declaredDuration(request)
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
                    declaredImage: received.declaredType?.type == "image", declaredDurationMs: duration),
                allowance: allowance)
            try await self.attachments.keep(
                attachment, fileAt: received.temporaryPath, sha256: received.sha256, uploader: me.id)
            request.application.serverMetrics.uploads.increment()
            request.application.serverMetrics.uploadBytes.increment(by: received.size)
            return .json(attachment.payload, status: .created)
        } catch {
            try? FileManager.default.removeItem(atPath: received.temporaryPath)
            throw error
        }
    }

    /// `?duration=` in milliseconds, a whole number when present.
    private static func declaredDuration(_ request: Request) throws -> Int? {
        guard let raw = request.query[String.self, at: "duration"] else { return nil }
        guard let duration = Int(raw) else {
            throw APIError.badRequest(.invalidBody, "duration is a whole number of milliseconds.")
        }
        return duration
    }

    /// The body in a temporary file, within the size limit and the upload deadline.
    private func receive(_ request: Request) async throws -> ReceivedUpload {
        try await Self.receive(
            request, into: self.receivingDirectory, threadPool: self.threadPool, maxBytes: self.maxUploadBytes)
    }

    /// The body of `request` in a temporary file under `directory`, at most `limit` bytes within the upload
    /// deadline; an ``APIError`` for each way it may fail.
    static func receive(
        _ request: Request, into directory: String, threadPool: NIOThreadPool, maxBytes limit: Int
    ) async throws -> ReceivedUpload {
        do {
            return try await withThrowingTaskGroup(of: ReceivedUpload?.self) { group in
                group.addTask {
                    try await UploadReceiver.receive(
                        request, into: directory, maxBytes: limit, threadPool: threadPool)
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
        let response = try await Self.serve(stored, of: self.attachments, to: request)
        response.headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=31536000, immutable")
        return response
    }

    /// The bytes of `stored` (the range asked for, when one is), as a download or an inline image. Its content
    /// never changes under its id: the caller says who may cache it.
    static func serve(_ stored: StoredAttachment, of attachments: Attachments, to request: Request) async throws
        -> Response
    {
        let attachment = stored.attachment
        if let range = request.headers.range, !Self.isSatisfiable(range, size: attachment.size) {
            throw APIError(
                status: .rangeNotSatisfiable, code: .rangeNotSatisfiable,
                message: "The attachment has \(attachment.size) bytes; the range asked for is outside them.",
                headers: ["Content-Range": "bytes */\(attachment.size)"])
        }
        let mediaType = HTTPMediaType(contentType: attachment.contentType)
        let span = Self.span(of: request.headers.range, size: Int(attachment.size))
        let response: Response
        // An empty content (a migrated row) has no byte to name: ask for the first, of which none comes back.
        switch try await attachments.bytes(of: stored, range: span.first...max(span.first, span.last)) {
        case .file(let path):
            // Vapor serves the file: the range, `ETag`, `Last-Modified` and `If-None-Match`.
            response = try await request.fileio.asyncStreamFile(at: path, mediaType: mediaType)
        case .bytes(let stream):
            response = Self.response(stream, of: stored, span: span, mediaType: mediaType)
        }
        response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        response.headers.replaceOrAdd(name: .contentDisposition, value: Self.disposition(attachment))
        return response
    }

    /// A response streaming `stream`, the bytes `span` of `stored`: `206` with `Content-Range` for a part.
    private static func response(
        _ stream: AttachmentByteStream, of stored: StoredAttachment, span: (first: Int, last: Int, partial: Bool),
        mediaType: HTTPMediaType
    ) -> Response {
        let size = Int(stored.attachment.size)
        let response = Response(status: span.partial ? .partialContent : .ok)
        response.headers.contentType = mediaType
        response.headers.replaceOrAdd(name: .acceptRanges, value: "bytes")
        response.headers.replaceOrAdd(name: .eTag, value: "\"\(stored.sha256)\"")
        if span.partial {
            response.headers.replaceOrAdd(name: .contentRange, value: "bytes \(span.first)-\(span.last)/\(size)")
        }
        response.body = Response.Body(
            asyncStream: { writer in
                do {
                    while let buffer = try await stream.next() { try await writer.write(.buffer(buffer)) }
                    try await writer.write(.end)
                } catch {
                    try? await writer.write(.error(error))
                }
            }, count: span.last - span.first + 1)
        return response
    }

    /// The bytes to send, `first...last`, and whether that is a part: the one range asked for when there is exactly
    /// one (satisfiable, as ``download(_:)`` checked), else the whole content.
    static func span(of range: HTTPHeaders.Range?, size: Int) -> (first: Int, last: Int, partial: Bool) {
        guard let range, range.unit == .bytes, range.ranges.count == 1, size > 0 else { return (0, size - 1, false) }
        switch range.ranges[0] {
        case .start(let start): return (start, size - 1, true)
        case .tail(let length): return (max(size - length, 0), size - 1, true)
        case .within(let start, let end): return (start, min(end, size - 1), true)
        }
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
