import Vapor

/// One line per HTTP request — method, path, status, time — at `debug` unless `--access-log true` asks for
/// `info`. The query string is left out: `?token=` carries a bearer token (WebSocket and attachment links), and
/// no token may reach a log. Each request is also counted in the metrics by its route template.
struct AccessLogMiddleware: Middleware {
    /// SwiftChat's own logger: the request's logger is Vapor's, which never logs below `info`.
    let logger: Logger
    let level: Logger.Level

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        let start = ContinuousClock.now
        let path = request.url.path
        return next.respond(to: request).always { result in
            let status =
                switch result {
                case .success(let response): response.status.code
                case .failure(let error): (error as? any AbortError)?.status.code ?? 500
                }
            self.log(request, path: path, status: status, since: start)
        }
    }

    private func log(_ request: Request, path: String, status: UInt, since start: ContinuousClock.Instant) {
        // The template (`/api/v1/rooms/:room/messages`), never the path: paths are unbounded. Requests no route
        // matched (the web client's files, 404s) share one label.
        let route = request.route.map { "/" + $0.path.map(\.description).joined(separator: "/") } ?? "unmatched"
        request.application.serverMetrics.request(route: route, method: request.method.rawValue, status: status)
        let milliseconds = (ContinuousClock.now - start) / .milliseconds(1)
        self.logger.log(
            level: self.level, "\(request.method.rawValue) \(path) \(status)",
            metadata: ["status": "\(status)", "ms": "\(Int(milliseconds))", "proto": "http"])
    }
}
