import AsyncHTTPClient
import ChatProtocol
import Foundation
import NIOCore
import NIOHTTP1

/// A JSON client for the server's `/api/v1` endpoints, on AsyncHTTPClient.
public struct APIClient: Sendable {
    /// One answer: status, headers and the raw body.
    public struct Reply: Sendable {
        public let status: Int
        public let headers: HTTPHeaders
        public let body: Data

        /// The body decoded as `T`, or a thrown error that shows the body.
        public func decode<T: Decodable>(_ type: T.Type) throws -> T {
            do {
                return try JSONDecoder().decode(T.self, from: self.body)
            } catch {
                throw TestClientError(
                    "could not decode \(T.self) from \(self.status) \(String(decoding: self.body, as: UTF8.self))")
            }
        }
    }

    let baseURL: String

    public init(host: String, port: Int) {
        self.baseURL = "http://\(host):\(port)/api/v1"
    }

    /// A client of any base URL (for requests outside `/api/v1`, such as the web client's files).
    public init(baseURL: String) {
        self.baseURL = baseURL
    }

    /// Sends `body` as JSON (or raw text, to test malformed bodies) with an optional bearer token.
    public func send(
        _ method: HTTPMethod, _ path: String, json body: (any Encodable & Sendable)? = nil, raw: String? = nil,
        token: String? = nil
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: self.baseURL + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        } else if let raw {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: raw))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 24)
        return Reply(status: Int(response.status.code), headers: response.headers, body: Data(bytes.readableBytesView))
    }

    /// Sends `body` as JSON to `route`, with `arguments` in its path and `query` after it, and an optional bearer
    /// token: the method and path are the route's, as the server registers it.
    public func send(
        _ route: APIRoute, _ arguments: String..., query: [(String, String?)] = [],
        json body: (any Encodable & Sendable)? = nil, token: String? = nil
    ) async throws -> Reply {
        try await self.send(route, arguments: arguments, query: query, json: body, token: token)
    }

    /// ``send(_:_:query:json:token:)`` with the path's arguments in an array.
    public func send(
        _ route: APIRoute, arguments: [String], query: [(String, String?)] = [],
        json body: (any Encodable & Sendable)? = nil, token: String? = nil
    ) async throws -> Reply {
        let path = route.path(arguments: arguments, query: query)
        let prefix = "/" + APIRoute.prefix.joined(separator: "/")
        return try await self.send(
            HTTPMethod(rawValue: route.method.rawValue), String(path.dropFirst(prefix.count)), json: body, token: token)
    }

    /// Sends raw bytes with the given `Content-Type` (an upload), with an optional bearer token.
    public func send(
        _ method: HTTPMethod, _ path: String, bytes: [UInt8], contentType: String?, token: String? = nil,
        headers extra: [(String, String)] = []
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: self.baseURL + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
        for (name, value) in extra { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: bytes))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 26)
        return Reply(status: Int(response.status.code), headers: response.headers, body: Data(body.readableBytesView))
    }

    /// `GET` with extra headers (a `Range`, say), with an optional bearer token.
    public func get(_ path: String, token: String? = nil, headers extra: [(String, String)] = []) async throws -> Reply
    {
        try await self.send(.GET, path, bytes: [], contentType: nil, token: token, headers: extra)
    }
}
