import ChatProtocol
import Vapor

extension Application {
    /// Serves the web client's files from `root` at `/` (`index.html` for a directory), every response with the
    /// headers that keep a page from running anything but its own scripts.
    ///
    /// The files answer a `GET` (or `HEAD`) that no route takes, rather than standing as middleware in front of every
    /// request. Vapor's `FileMiddleware` looks the path up on disk before passing a request on, on the process-wide
    /// blocking pool (`FileSystem.shared`), in a task of its own: as middleware it did that for every API call and
    /// every WebSocket upgrade, and a pool taken by other work held them all (ARCHITECTURE.md §4).
    func serveWebClient(from root: String) {
        self.middleware.use(ControlCharactersInPathMiddleware())
        self.middleware.use(SecurityHeadersMiddleware())
        self.middleware.use(ManifestTypeMiddleware())
        let files = WebClientFiles(files: FileMiddleware(publicDirectory: root, defaultFile: "index.html"))
        self.get(use: files.respond)
        self.get("**", use: files.respond)
    }
}

/// The web client's file at a request's path, or `404` as for a path no route takes.
private struct WebClientFiles: Sendable {
    let files: FileMiddleware

    @Sendable func respond(_ request: Request) async throws -> Response {
        try await self.files.respond(to: request, chainingTo: NoSuchFile())
    }

    private struct NoSuchFile: AsyncResponder {
        func respond(to request: Request) async throws -> Response { throw NotFound() }
    }

    /// Vapor's `RouteNotFound`, whose initializer it keeps to itself: `404`, logged at `debug` as that one is.
    private struct NotFound: AbortError, DebuggableError {
        var status: HTTPResponseStatus { .notFound }
        var identifier: String { "notFound" }
        var reason: String { "Not Found" }
        var logLevel: Logger.Level { .debug }
    }
}

/// Adds a Content-Security-Policy that allows only this origin's scripts, styles, images and connections (no
/// inline scripts, no other hosts), forbids sniffing and framing, and makes browsers revalidate what they cached.
///
/// This and the other middleware every request passes are `Middleware`, not `AsyncMiddleware`: Vapor runs each
/// `AsyncMiddleware` of a request in a task of its own, created, scheduled and freed per layer and request, and
/// `heaptrack` counted those tasks' memory among what a node holds per open modern WebSocket (docs/BENCHMARKS.md
/// "Scale"). A future's `map` costs none of that.
struct SecurityHeadersMiddleware: Middleware {
    static let policy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' blob: data:",
        "connect-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        next.respond(to: request).map { response in
            guard response.status != .switchingProtocols else { return response }
            response.headers.replaceOrAdd(name: "Content-Security-Policy", value: Self.policy)
            response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
            response.headers.replaceOrAdd(name: "Referrer-Policy", value: "no-referrer")
            // The client's modules must come from one version: revalidate them (cheap, with their ETags) every time.
            if !response.headers.contains(name: .cacheControl) {
                response.headers.replaceOrAdd(name: .cacheControl, value: "no-cache")
            }
            return response
        }
    }
}

/// Gives the web app manifest its type, `application/manifest+json`, which Vapor's table of file types lacks: with
/// `nosniff`, a manifest without a type is not one to a browser that checks.
struct ManifestTypeMiddleware: Middleware {
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        let isManifest = request.url.path.hasSuffix(".webmanifest")
        return next.respond(to: request).map { response in
            if isManifest, response.status == .ok {
                response.headers.replaceOrAdd(name: .contentType, value: "application/manifest+json")
            }
            return response
        }
    }
}

/// Refuses (400) a path that holds a NUL or another control character once percent-decoded: a file path cut short
/// at `%00` (`/index.html%00.js`) would be served with the type its tail suggests.
struct ControlCharactersInPathMiddleware: Middleware {
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        let path = request.url.path.removingPercentEncoding ?? request.url.path
        guard !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            // In the API's error shape (PROTOCOL.md §6.1) whatever the path, `/api/v1` or a file.
            return request.eventLoop.makeSucceededFuture(
                APIErrorMiddleware.response(for: .badRequest(.badRequest, "The path holds a control character.")))
        }
        return next.respond(to: request)
    }
}
