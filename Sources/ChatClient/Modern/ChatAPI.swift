import AsyncHTTPClient
import ChatProtocol
import Foundation
import NIOCore
import NIOHTTP1

/// The HTTP half of the modern protocol (`/api/v1`, PROTOCOL.md §6, §7, §9.3, §9.7), one method per endpoint.
///
/// Stateless apart from the address: pass the token of an ``AuthSession`` to the calls that need one. Errors are
/// ``ChatClientError``s: `.server` with the protocol's `code` for an `/api/v1` error body, `.unreachable` when
/// no server answered.
public struct ChatAPI: Sendable {
    /// The server this talks to.
    public let server: ServerAddress
    let http: HTTPClient
    let timeout: TimeAmount

    /// The HTTP client every ``ChatAPI`` uses unless given another: AsyncHTTPClient's defaults, except that a
    /// connection that cannot be made fails the request at once instead of being retried until its deadline, so
    /// "the server is down" is an answer and not a 30-second wait. Lives as long as the process.
    public static let sharedHTTPClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// A client for `server`, on ``sharedHTTPClient`` unless you pass one.
    public init(server: ServerAddress, http: HTTPClient = ChatAPI.sharedHTTPClient, timeout: TimeAmount = .seconds(30))
    {
        self.server = server
        self.http = http
        self.timeout = timeout
    }

    // MARK: Accounts (§6)

    /// `POST /register`: creates an account and signs in.
    public func register(username: String, password: String, displayName: String? = nil) async throws -> AuthSession {
        try await self.call(
            .register, body: RegisterRequest(username: username, password: password, displayName: displayName))
    }

    /// `POST /login`. A wrong password or an unknown user is `.server(status: 401, code: .invalidCredentials)`.
    public func login(username: String, password: String) async throws -> AuthSession {
        try await self.call(.login, body: LoginRequest(username: username, password: password))
    }

    /// `POST /logout`: the token stops working at once.
    public func logout(token: String) async throws {
        _ = try await self.raw(.logout, token: token)
    }

    /// `GET /me`.
    public func me(token: String) async throws -> UserProfile {
        try await self.call(.me, token: token)
    }

    /// `PATCH /me`: changes only the fields given.
    public func updateProfile(_ update: ProfileUpdate, token: String) async throws -> UserProfile {
        try await self.call(.updateMe, body: update, token: token)
    }

    /// `GET /users?query=`: up to 50 profiles whose username or display name contains `query`.
    public func users(matching query: String, token: String) async throws -> [UserProfile] {
        try await self.call(.users, query: [("query", query)], token: token)
    }

    // MARK: Rooms (§7)

    /// `GET /rooms`: my rooms, most recent activity first.
    public func rooms(token: String) async throws -> [RoomSummary] {
        try await self.call(.rooms, token: token)
    }

    /// `GET /rooms/public`: every channel.
    public func publicRooms(token: String) async throws -> [ChannelSummary] {
        try await self.call(.publicRooms, token: token)
    }

    /// `POST /rooms`: a new channel or group.
    public func createRoom(_ request: CreateRoomRequest, token: String) async throws -> RoomSummary {
        try await self.call(.createRoom, body: request, token: token)
    }

    /// `POST /rooms/{id}/join` (channels only).
    public func join(room: String, token: String) async throws -> RoomSummary {
        try await self.call(.join, [room], token: token)
    }

    /// `POST /rooms/{id}/leave`.
    public func leave(room: String, token: String) async throws {
        _ = try await self.raw(.leave, [room], token: token)
    }

    /// `POST /rooms/{id}/invite`.
    public func invite(username: String, to room: String, token: String) async throws {
        _ = try await self.raw(.invite, [room], body: UsernameRequest(username: username), token: token)
    }

    /// `POST /dms`: the direct room with `username`, created on first use.
    public func directRoom(with username: String, token: String) async throws -> RoomSummary {
        try await self.call(.directRoom, body: UsernameRequest(username: username), token: token)
    }

    /// `POST /rooms/{id}/messages` (PROTOCOL.md §9.12): a message sent over HTTP, once per `clientMsgID`, without a
    /// connection (scripts, bots). The ack.
    public func postMessage(_ request: PostMessageRequest, to room: String, token: String) async throws -> AckFrame {
        try await self.call(.postMessage, [room], body: request, token: token)
    }

    /// `POST /rooms/{id}/forward` (PROTOCOL.md §7.6): message `seq` of `source`, sent again in `room` with its
    /// attachments by reference; once per `clientMsgID`. The ack of the copy.
    public func forward(
        _ seq: Int64, of source: String, to room: String, clientMsgID: String = UUID().uuidString, token: String
    ) async throws -> AckFrame {
        try await self.call(
            .forward, [room], body: ForwardRequest(room: source, seq: seq, clientMsgID: clientMsgID), token: token)
    }

    /// `PUT` or `DELETE /rooms/{id}/unread` (§7.5): marks the room unread on every device, or clears the mark.
    public func setMarkedUnread(_ marked: Bool, room: String, token: String) async throws {
        _ = try await self.raw(marked ? .markUnread : .clearUnread, [room], token: token)
    }

    /// `DELETE /rooms/{id}/messages/{seq}/preview` (§9.15): removes the link preview of my message.
    public func removePreview(of seq: Int64, in room: String, token: String) async throws {
        _ = try await self.raw(.removePreview, [room, String(seq)], token: token)
    }

    /// `PUT` or `DELETE /rooms/{id}/messages/{seq}/pin` (§7.8): pins message `seq` to the top of the room for
    /// everyone in it, or unpins it.
    public func setPinned(_ pinned: Bool, message seq: Int64, in room: String, token: String) async throws {
        _ = try await self.raw(pinned ? .pinMessage : .unpinMessage, [room, String(seq)], token: token)
    }

    /// `GET /rooms/{id}/pins` (§7.8): the room's pinned messages, the most recently pinned first.
    public func pinnedMessages(in room: String, token: String) async throws -> [MessagePayload] {
        let pinned: PinnedMessagesPayload = try await self.call(.pinnedMessages, [room], token: token)
        return pinned.messages
    }

    /// `GET /me/contacts` (§6.4): the people of my direct rooms and groups and those I added, A–Z.
    public func contacts(token: String) async throws -> [ContactPayload] {
        let list: ContactList = try await self.call(.contacts, token: token)
        return list.contacts
    }

    /// `POST /me/contacts`: adds `username` to my contacts.
    public func addContact(_ username: String, token: String) async throws -> ContactPayload {
        try await self.call(.addContact, body: UsernameRequest(username: username), token: token)
    }

    /// `DELETE /me/contacts/{id}`: removes someone I added.
    public func removeContact(_ id: UUID, token: String) async throws {
        _ = try await self.raw(.removeContact, [id.uuidString], token: token)
    }

    /// `PUT /me/avatar` (§6.5): `image` (PNG, JPEG, GIF or WebP, at most 2 MiB) becomes my picture. My profile.
    public func setAvatar(_ image: Data, contentType: String = "image/png", token: String) async throws -> UserProfile {
        try Self.decoded(try await self.raw(.setMyAvatar, bytes: image, contentType: contentType, token: token))
    }

    /// `DELETE /me/avatar`: back to my colour and initials. My profile.
    public func removeAvatar(token: String) async throws -> UserProfile {
        try await self.call(.removeMyAvatar, token: token)
    }

    /// `PUT /rooms/{id}/avatar` (§7.7): the picture of a channel or group I moderate. Where it is served.
    public func setRoomAvatar(_ image: Data, contentType: String = "image/png", room: String, token: String)
        async throws -> AvatarPayload
    {
        try Self.decoded(
            try await self.raw(.setRoomAvatar, [room], bytes: image, contentType: contentType, token: token))
    }

    /// `DELETE /rooms/{id}/avatar`.
    public func removeRoomAvatar(room: String, token: String) async throws {
        _ = try await self.raw(.removeRoomAvatar, [room], token: token)
    }

    /// The bytes of a picture, from a profile's or summary's `avatarURL` (no token needed).
    public func avatar(at avatarURL: String) async throws -> Data {
        let prefix = "/" + APIRoute.prefix.joined(separator: "/") + "/"
        guard avatarURL.hasPrefix(prefix + "avatars/") else {
            throw ChatClientError.unexpectedResponse(status: 0, body: "not a picture's address: \(avatarURL)")
        }
        return try await self.raw(.avatar, [String(avatarURL.dropFirst(prefix.count + "avatars/".count))]).body
    }

    /// `GET /rooms/{id}/messages?before=&limit=`: one page, oldest first; pass the smallest `seq` you have as
    /// `before` to go further back.
    public func history(room: String, before: Int64? = nil, limit: Int = 50, token: String) async throws -> HistoryPage
    {
        try await self.call(
            .history, [room], query: [("limit", String(limit)), ("before", before.map(String.init))], token: token)
    }

    // MARK: Rich chat (§9)

    /// `GET /search?q=&room=&limit=`: messages with every word of `query`, best first, with highlight snippets.
    public func search(_ query: String, room: String? = nil, limit: Int = 20, token: String) async throws -> [SearchHit]
    {
        let results: SearchResults = try await self.call(
            .search, query: [("q", query), ("limit", String(limit)), ("room", room)], token: token)
        return results.results
    }

    /// `GET /config`: the server's limits (no token needed).
    public func config() async throws -> ServerLimits {
        try await self.call(.config)
    }

    /// `GET /users/{id}`: a profile with presence.
    public func user(_ id: UUID, token: String) async throws -> UserDetails {
        try await self.call(.user, [id.uuidString], token: token)
    }

    /// `POST /attachments?name=`: uploads raw bytes; the server detects the type from them.
    public func upload(_ bytes: Data, name: String, contentType: String = "application/octet-stream", token: String)
        async throws -> AttachmentPayload
    {
        try Self.decoded(
            try await self.raw(.upload, query: [("name", name)], bytes: bytes, contentType: contentType, token: token))
    }

    /// `GET /attachments/{id}`: the bytes of an attachment I may see.
    public func download(_ id: UUID, token: String) async throws -> Data {
        try await self.raw(.download, [id.uuidString], token: token).body
    }

    // MARK: Plumbing

    /// Sends one request and decodes a 2xx answer as `T`.
    func call<T: Decodable>(
        _ route: APIRoute, _ arguments: [String] = [], query: [(String, String?)] = [],
        body: (any Encodable & Sendable)? = nil, token: String? = nil
    ) async throws -> T {
        try Self.decoded(try await self.raw(route, arguments, query: query, body: body, token: token))
    }

    /// A 2xx answer's body decoded as `T`.
    static func decoded<T: Decodable>(_ reply: (status: Int, headers: HTTPHeaders, body: Data)) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: reply.body)
        } catch {
            throw ChatClientError.unexpectedResponse(
                status: reply.status, body: String(decoding: reply.body, as: UTF8.self))
        }
    }

    /// Sends one request; a non-2xx answer becomes the matching ``ChatClientError``.
    func raw(
        _ route: APIRoute, _ arguments: [String] = [], query: [(String, String?)] = [],
        body: (any Encodable & Sendable)? = nil, bytes: Data? = nil, contentType: String? = nil, token: String? = nil,
        headers extra: [(String, String)] = []
    ) async throws -> (status: Int, headers: HTTPHeaders, body: Data) {
        let method = HTTPMethod(rawValue: route.method.rawValue)
        var request = HTTPClientRequest(url: self.server.httpBase + route.path(arguments: arguments, query: query))
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in extra { request.headers.add(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        } else if let bytes, method != .GET {
            request.headers.add(name: "Content-Type", value: contentType ?? "application/octet-stream")
            request.body = .bytes(ByteBuffer(bytes: bytes))
        }
        let status: Int
        let headers: HTTPHeaders
        let data: Data
        do {
            let response = try await self.http.execute(request, timeout: self.timeout)
            let collected = try await response.body.collect(upTo: 64 << 20)
            status = Int(response.status.code)
            headers = response.headers
            data = Data(collected.readableBytesView)
        } catch {
            throw ChatClientError.unreachable(String(describing: error))
        }
        guard (200..<300).contains(status) else {
            if let error = try? JSONDecoder().decode(APIErrorBody.self, from: data) {
                if status == 401, error.code == .unauthorized { throw ChatClientError.unauthorized }
                throw ChatClientError.server(status: status, code: error.code, message: error.message)
            }
            throw ChatClientError.unexpectedResponse(status: status, body: String(decoding: data, as: UTF8.self))
        }
        return (status, headers, data)
    }

}
