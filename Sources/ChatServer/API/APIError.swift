import ChatProtocol
import Vapor

/// An error of the `/api/v1` endpoints: an HTTP status, a stable `code` for programs and a `message` for people.
struct APIError: Error {
    let status: HTTPResponseStatus
    let code: String
    let message: String
    var headers: HTTPHeaders = [:]

    static func badRequest(_ code: String, _ message: String) -> APIError {
        APIError(status: .badRequest, code: code, message: message)
    }

    static let unauthorized = APIError(
        status: .unauthorized, code: "unauthorized", message: "A valid bearer token is required.",
        headers: ["WWW-Authenticate": "Bearer"])
}

/// Renders every error under `/api/v1` as `{"code": …, "message": …}` with the right status, never a stack trace.
struct APIErrorMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch let error as APIError {
            return Self.response(for: error)
        } catch is DecodingError {
            return Self.response(for: .badRequest("invalid_body", "The request body is not the JSON this endpoint expects."))
        } catch let abort as any AbortError {
            let code = switch abort.status {
            case .notFound: "not_found"
            case .payloadTooLarge: "too_large"
            default: "http_\(abort.status.code)"
            }
            return Self.response(for: APIError(status: abort.status, code: code, message: abort.reason, headers: abort.headers))
        } catch {
            request.logger.error("unexpected error: \(String(reflecting: error))")
            return Self.response(for: APIError(status: .internalServerError, code: "internal", message: "Something went wrong on the server."))
        }
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
        return Response(status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: .init(data: body))
    }
}
