import ChatProtocol
import ChatUseCases
import Metrics
import Vapor

/// An error of the `/api/v1` endpoints: an HTTP status, a stable `code` for programs and a `message` for people.
struct APIError: Error {
    let status: HTTPResponseStatus
    let code: ErrorCode
    let message: String
    var headers: HTTPHeaders = [:]
    /// Which limit refused the request, for the metrics.
    var limit: ServerMetrics.RateLimitKind?

    static func badRequest(_ code: ErrorCode, _ message: String) -> APIError {
        APIError(status: .badRequest, code: code, message: message)
    }

    /// 429 with `Retry-After` in whole seconds; `message` ends with "try again in" and gets the seconds.
    static func rateLimited(_ limit: ServerMetrics.RateLimitKind, _ message: String, _ wait: Duration) -> APIError {
        let seconds = Int(wait.components.seconds) + 1
        return APIError(
            status: .tooManyRequests, code: .rateLimited, message: "\(message) \(seconds) s.",
            headers: ["Retry-After": "\(seconds)"], limit: limit)
    }

    /// 503 with `Retry-After: 1`: the database failed, and the same request may succeed in a moment.
    static let unavailable = APIError(
        status: .serviceUnavailable, code: .unavailable, message: "The server could not read its database; try again.",
        headers: ["Retry-After": "1"])

    static let unauthorized = APIError(
        status: .unauthorized, code: .unauthorized, message: "A valid bearer token is required.",
        headers: ["WWW-Authenticate": "Bearer"])
}

extension APIError {
    /// A use case's refusal with its HTTP status.
    init(_ refusal: Refusal) {
        self.code = refusal.code
        self.message = refusal.message
        switch refusal.kind {
        case .invalid: self.status = .badRequest
        case .wrongCredentials: self.status = .unauthorized
        case .notAllowed: self.status = .forbidden
        case .notFound: self.status = .notFound
        case .conflict: self.status = .conflict
        case .tooLarge: self.status = .payloadTooLarge
        case .wrongType: self.status = .unsupportedMediaType
        case .rateLimited(let limit, let seconds):
            self.status = .tooManyRequests
            self.headers = ["Retry-After": "\(seconds)"]
            self.limit = limit
        case .busy(let seconds):
            self.status = .serviceUnavailable
            self.headers = ["Retry-After": "\(seconds)"]
        }
    }
}

/// Renders every error under `/api/v1` as `{"code": …, "message": …}` with the right status, never a stack trace.
struct APIErrorMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch let error as APIError {
            return Self.response(for: error, request: request)
        } catch let refusal as Refusal {
            return Self.response(for: APIError(refusal), request: request)
        } catch RoomAccessDenied.forbidden {
            return Self.response(for: RoomsController.forbidden)
        } catch RoomAccessDenied.muted {
            return Self.response(
                for: APIError(status: .forbidden, code: .forbidden, message: RoomAccessDenied.mutedMessage))
        } catch RoomAccessDenied.unavailable(let error) {
            return Self.response(
                for: StoreUnavailable(RoomAccessDenied.unavailableMessage, underlying: error), request: request)
        } catch let failure as StoreUnavailable {
            return Self.response(for: failure, request: request)
        } catch is DecodingError {
            return Self.response(
                for: .badRequest(.invalidBody, "The request body is not the JSON this endpoint expects."))
        } catch let abort as any AbortError {
            return Self.response(for: Self.apiError(for: abort))
        } catch {
            request.logger.error("unexpected error: \(String(reflecting: error))")
            return Self.response(
                for: APIError(
                    status: .internalServerError, code: .`internal`, message: "Something went wrong on the server."))
        }
    }

    /// Vapor's own errors in the §6.1 shape with a listed code. A body Vapor cannot read (empty, not JSON, no
    /// `Content-Type`) is the same `invalid_body` as a body of the wrong shape.
    static func apiError(for abort: any AbortError) -> APIError {
        switch abort.status {
        case .unsupportedMediaType, .unprocessableEntity:
            .badRequest(.invalidBody, "The request body is not the JSON this endpoint expects.")
        case .badRequest:
            .badRequest(.badRequest, abort.reason)
        case .notFound:
            APIError(status: .notFound, code: .notFound, message: "There is nothing at this address.")
        case .payloadTooLarge:
            APIError(status: .payloadTooLarge, code: .tooLarge, message: abort.reason, headers: abort.headers)
        case .upgradeRequired:
            APIError(status: .upgradeRequired, code: .upgradeRequired, message: abort.reason, headers: abort.headers)
        default:
            // Any other refusal of the HTTP layer keeps its status, with the one code PROTOCOL.md lists for it.
            APIError(
                status: abort.status, code: abort.status.code >= 500 ? .internal : .badRequest, message: abort.reason,
                headers: abort.headers)
        }
    }

    /// A store's failure is the server's, not the caller's: logged once here, where it is answered, and 503 with
    /// `Retry-After` (PROTOCOL.md §6.1), whatever the route.
    private static func response(for failure: StoreUnavailable, request: Request) -> Response {
        request.logger.error("\(failure)")
        return Self.response(for: .unavailable)
    }

    /// Counts a rate-limited refusal, then renders it.
    private static func response(for error: APIError, request: Request) -> Response {
        if let limit = error.limit { request.application.serverMetrics.refused(limit) }
        return Self.response(for: error)
    }

    static func response(for error: APIError) -> Response {
        let response = Response.json(APIErrorBody(code: error.code, message: error.message), status: error.status)
        for (name, value) in error.headers {
            response.headers.replaceOrAdd(name: name, value: value)
        }
        return response
    }
}

extension Response {
    /// A JSON response with sorted keys, so equal values are equal bytes (the modern API's dates are plain
    /// millisecond numbers, so no date strategy is needed).
    static func json(_ value: some Encodable, status: HTTPResponseStatus = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let body = (try? encoder.encode(value)) ?? Data()
        return Response(
            status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: .init(data: body))
    }
}
