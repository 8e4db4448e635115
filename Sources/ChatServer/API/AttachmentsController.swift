import ChatCore
import ChatProtocol
import Foundation
import Vapor

/// `POST /api/v1/attachments` and `GET /api/v1/attachments/{id}` (PROTOCOL.md §9.3).
struct AttachmentsController: Sendable {
    let attachments: any AttachmentStore
    let accounts: any AccountStore
    let directory: any RoomDirectory
    let files: AttachmentFiles
    let maxUploadBytes: Int

    /// A `multipart/form-data` upload: one part named `file`.
    private struct Form: Content {
        var file: File
    }

    func register(on api: any RoutesBuilder, authenticated: any RoutesBuilder) {
        authenticated.on(.POST, .constant(Paths.attachments), body: .collect(maxSize: ByteCount(value: self.maxUploadBytes)), use: self.upload)
        api.get(.constant(Paths.attachments), ":id", use: self.download)
    }

    /// `POST /attachments[?name=]` with the raw bytes, or a multipart form → 201 the attachment.
    @Sendable func upload(_ request: Request) async throws -> Response {
        let me = try request.authenticated.account
        let (bytes, declared, name) = try self.body(of: request)
        guard bytes.readableBytes > 0 else {
            throw APIError.badRequest("empty_upload", "The upload is empty.")
        }
        guard bytes.readableBytes <= self.maxUploadBytes else { throw Self.tooLarge(self.maxUploadBytes) }
        let detected = ContentSniffer.detect(bytes)
        if declared?.type == "image", !detected.isImage {
            throw APIError(
                status: .unsupportedMediaType, code: "unsupported_type",
                message: "The upload is declared as an image but is not a PNG, JPEG, GIF or WebP image.")
        }
        let sha256 = try await self.files.store(bytes)
        let attachment = Attachment(
            id: UUID(), name: name, contentType: detected.contentType, size: Int64(bytes.readableBytes),
            width: detected.width, height: detected.height)
        try await self.attachments.save(StoredAttachment(attachment: attachment, uploader: me.id, sha256: sha256))
        return .json(attachment.payload, status: .created)
    }

    /// `GET /attachments/{id}` with a Bearer header or `?token=` → the bytes, to those who may read them.
    @Sendable func download(_ request: Request) async throws -> Response {
        let forbidden = APIError(status: .forbidden, code: "forbidden", message: "You cannot see that attachment, or it does not exist.")
        guard let id = request.parameters.get("id").flatMap(UUID.init(uuidString:)),
            let stored = try await self.attachments.attachment(id)
        else { throw forbidden }
        let user = try await self.caller(of: request)
        guard try await self.attachments.canRead(stored, user: user, directory: self.directory) else { throw forbidden }
        let attachment = stored.attachment
        let response = try await request.fileio.asyncStreamFile(
            at: self.files.path(for: stored.sha256), mediaType: HTTPMediaType(contentType: attachment.contentType))
        response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        response.headers.replaceOrAdd(name: .contentDisposition, value: Self.disposition(attachment))
        response.headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=31536000, immutable")
        return response
    }

    /// The bytes, the declared type and the file name of an upload, raw or multipart.
    private func body(of request: Request) throws -> (ByteBuffer, HTTPMediaType?, String) {
        let rawName = (try? request.query.get(String.self, at: "name")) ?? "file"
        if request.headers.contentType?.type == "multipart" {
            guard let form = try? request.content.decode(Form.self) else {
                throw APIError.badRequest("invalid_body", "A multipart upload needs a part named \"file\".")
            }
            return (form.file.data, form.file.contentType, Self.cleanName(form.file.filename))
        }
        return (request.body.data ?? ByteBuffer(), request.headers.contentType, Self.cleanName(rawName))
    }

    /// The caller, if the request carries a valid token (header or query); `nil` for anyone else.
    private func caller(of request: Request) async throws -> UUID? {
        guard let token = request.headers.bearerAuthorization?.token ?? request.query[String.self, at: "token"] else { return nil }
        return try await self.accounts.userID(forTokenHash: BearerToken.hash(token), now: Date())
    }

    static func tooLarge(_ limit: Int) -> APIError {
        APIError(status: .payloadTooLarge, code: "too_large", message: "An upload is at most \(limit) bytes.")
    }

    /// A file name safe to store and to send back in a header: no path, no control characters, at most 255
    /// characters.
    private static func cleanName(_ name: String) -> String {
        let base = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let cleaned = String(base.unicodeScalars.filter { $0.properties.generalCategory != .control }.prefix(255))
        return cleaned.isEmpty ? "file" : cleaned
    }

    /// `inline` for images, `attachment` for anything else, with the name in RFC 5987 form.
    private static func disposition(_ attachment: Attachment) -> String {
        let encoded = attachment.name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "file"
        let ascii = String(attachment.name.unicodeScalars.map { $0.isASCII && $0 != "\"" && $0 != "\\" ? Character($0) : "_" })
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
