import ChatCore
import Crypto
import Foundation
import MultipartKit
import NIOCore
import NIOPosix
import Vapor

/// An upload received to a temporary file: its bytes never sit in memory beyond one chunk and a short prefix.
struct ReceivedUpload {
    /// The temporary file; keeping the upload (``Attachments/keep(_:fileAt:sha256:uploader:)``) takes it away.
    let temporaryPath: String
    let sha256: String
    let size: Int
    /// The first bytes, for ``ContentSniffer``.
    let prefix: ByteBuffer
    let declaredType: HTTPMediaType?
    let name: String
}

/// Why an upload was refused while it arrived.
enum UploadFailure: Error {
    case tooLarge
    case noFilePart
    case malformedMultipart
    case timedOut
}

/// Streams a request body, raw or the `file` part of a multipart form, into a temporary file while hashing it.
/// The limit counts the file's bytes, not the request's: a file of exactly `maxBytes` is accepted.
final class UploadReceiver {
    /// How many leading bytes are kept for content sniffing (image headers with their dimensions).
    static let sniffBytes = 64 * 1024

    private let maxBytes: Int
    private let file: FileHandle
    private let path: String
    private let threadPool: NIOThreadPool
    private var hasher = SHA256()
    private var size = 0
    private var prefix = ByteBuffer()
    private var failure: UploadFailure?

    private init(path: String, maxBytes: Int, threadPool: NIOThreadPool) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let file = FileHandle(forWritingAtPath: path)
        else { throw CocoaError(.fileWriteUnknown) }
        self.path = path
        self.file = file
        self.maxBytes = maxBytes
        self.threadPool = threadPool
    }

    /// Receives the body of `request` into a new file under `directory`. On any failure the file is removed.
    static func receive(
        _ request: Request, into directory: String, maxBytes: Int, threadPool: NIOThreadPool
    ) async throws -> ReceivedUpload {
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = URL(fileURLWithPath: directory).appendingPathComponent("upload-\(UUID().uuidString)").path
        let receiver = try UploadReceiver(path: path, maxBytes: maxBytes, threadPool: threadPool)
        do {
            let received = try await receiver.receive(request)
            try receiver.file.close()
            return received
        } catch {
            try? receiver.file.close()
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
    }

    private func receive(_ request: Request) async throws -> ReceivedUpload {
        let rawName = request.query[String.self, at: "name"] ?? "file"
        if request.headers.contentType?.type == "multipart" {
            // RFC 2046: 1 to 70 characters. An empty boundary is a precondition failure in multipart-kit.
            guard let boundary = request.headers.contentType?.parameters["boundary"],
                (1...70).contains(boundary.utf8.count)
            else { throw UploadFailure.malformedMultipart }
            let form = MultipartFile(boundary: boundary)
            var guardian = MultipartHeaderGuard(boundary: boundary)
            for try await chunk in request.body {
                do {
                    try guardian.inspect(chunk.readableBytesView)
                } catch {
                    throw UploadFailure.malformedMultipart
                }
                try form.parser.execute(chunk)
                for piece in form.takeFileBytes() { try await self.append(piece) }
            }
            guard form.sawFile else { throw UploadFailure.noFilePart }
            return self.finish(declaredType: form.contentType, name: form.filename ?? "file")
        }
        for try await chunk in request.body {
            try await self.append(chunk)
        }
        return self.finish(declaredType: request.headers.contentType, name: rawName)
    }

    private func append(_ chunk: ByteBuffer) async throws {
        self.size += chunk.readableBytes
        guard self.size <= self.maxBytes else { throw UploadFailure.tooLarge }
        chunk.withUnsafeReadableBytes { self.hasher.update(bufferPointer: $0) }
        if self.prefix.readableBytes < Self.sniffBytes {
            var head = chunk.getSlice(
                at: chunk.readerIndex, length: min(chunk.readableBytes, Self.sniffBytes - self.prefix.readableBytes))!
            self.prefix.writeBuffer(&head)
        }
        let data = Data(chunk.readableBytesView)
        let file = self.file
        try await self.threadPool.runIfActive { try file.write(contentsOf: data) }
    }

    private func finish(declaredType: HTTPMediaType?, name: String) -> ReceivedUpload {
        let digest = self.hasher.finalize().hex
        return ReceivedUpload(
            temporaryPath: self.path, sha256: digest, size: self.size, prefix: self.prefix, declaredType: declaredType,
            name: name)
    }
}

/// Follows a multipart body as it streams and picks out the bytes of the part named `file`.
private final class MultipartFile {
    let parser: MultipartParser
    private(set) var sawFile = false
    private(set) var filename: String?
    private(set) var contentType: HTTPMediaType?
    private var headers: [(String, String)] = []
    private var inFilePart: Bool?
    private var pending: [ByteBuffer] = []

    init(boundary: String) {
        self.parser = MultipartParser(boundary: boundary)
        self.parser.onHeader = { [unowned self] name, value in self.headers.append((name, value)) }
        self.parser.onBody = { [unowned self] body in
            if self.inFilePart == nil { self.startPart() }
            if self.inFilePart == true { self.pending.append(body) }
        }
        self.parser.onPartComplete = { [unowned self] in
            if self.inFilePart == nil { self.startPart() }
            self.headers = []
            self.inFilePart = nil
        }
    }

    /// The file's bytes parsed since the last call.
    func takeFileBytes() -> [ByteBuffer] {
        defer { self.pending = [] }
        return self.pending
    }

    private func startPart() {
        var disposition = HTTPHeaders()
        for (name, value) in self.headers { disposition.add(name: name, value: value) }
        let isFile = !self.sawFile && disposition.contentDisposition?.name == "file"
        self.inFilePart = isFile
        if isFile {
            self.sawFile = true
            self.filename = disposition.contentDisposition?.filename
            self.contentType = disposition.contentType
        }
    }
}
