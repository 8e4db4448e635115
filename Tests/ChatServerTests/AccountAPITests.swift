import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

extension TestServer {
    var api: APIClient { APIClient(host: self.host, port: self.httpPort) }

    /// Registers `username` and returns its session.
    func register(_ username: String, password: String = "correct horse", displayName: String? = nil) async throws
        -> AuthSession
    {
        let reply = try await self.api.send(
            .POST, "/register", json: RegisterRequest(username: username, password: password, displayName: displayName))
        #expect(reply.status == 201)
        return try reply.decode(AuthSession.self)
    }
}

@Suite("Accounts and sessions (PROTOCOL.md §6)")
struct AccountAPITests {
    @Test func registerThenUseTheToken() async throws {
        try await withTestServer { server in
            let session = try await server.register("Ann.Lee", displayName: "Ann Lee")
            #expect(
                session.user.username == "Ann.Lee" && session.user.displayName == "Ann Lee"
                    && session.user.initials == "AL")
            #expect(session.token.count >= 43)
            #expect(session.expiresAt > Int64(Date().timeIntervalSince1970 * 1000))
            let me = try await server.api.send(.GET, "/me", token: session.token)
            #expect(me.status == 200)
            #expect(try me.decode(UserProfile.self) == session.user)
        }
    }

    @Test("usernames are unique without regard to case")
    func uniqueUsernames() async throws {
        try await withTestServer { server in
            _ = try await server.register("ann")
            let again = try await server.api.send(
                .POST, "/register", json: RegisterRequest(username: "ANN", password: "another one"))
            #expect(again.status == 409)
            #expect(try again.decode(APIErrorBody.self).code == .usernameTaken)
        }
    }

    @Test(
        "bad registrations get 400 with a code and store nothing",
        arguments: [
            (#"{"username":"ab","password":"long enough"}"#, "invalid_username"),
            (#"{"username":"-ann","password":"long enough"}"#, "invalid_username"),
            (#"{"username":"ann smith","password":"long enough"}"#, "invalid_username"),
            (#"{"username":"ann","password":"short"}"#, "invalid_password"),
            (#"{"username":"ann","password":"long enough","displayName":"  "}"#, "invalid_display_name"),
            (#"{"username":"ann""#, "invalid_body"),
            (#"{"user":"ann"}"#, "invalid_body"),
        ])
    func badRegistrations(body: String, code: String) async throws {
        try await withTestServer { server in
            let reply = try await server.api.send(.POST, "/register", raw: body)
            #expect(reply.status == 400)
            #expect(try reply.decode(APIErrorBody.self).code.rawValue == code)
            let login = try await server.api.send(
                .POST, "/login", json: LoginRequest(username: "ann", password: "long enough"))
            #expect(login.status == 401)
        }
    }

    @Test("login: the right password gives a new token; a wrong one or an unknown user the same 401")
    func login() async throws {
        try await withTestServer { server in
            let first = try await server.register("bob", password: "s3cret password")
            let good = try await server.api.send(
                .POST, "/login", json: LoginRequest(username: "BOB", password: "s3cret password"))
            #expect(good.status == 200)
            let second = try good.decode(AuthSession.self)
            #expect(second.token != first.token && second.user == first.user)
            for attempt in [
                LoginRequest(username: "bob", password: "wrong password"),
                LoginRequest(username: "nobody", password: "s3cret password"),
            ] {
                let bad = try await server.api.send(.POST, "/login", json: attempt)
                #expect(bad.status == 401)
                #expect(try bad.decode(APIErrorBody.self).code == .invalidCredentials)
            }
        }
    }

    @Test("no token, a bad token, a revoked token and an expired token all get 401")
    func tokenBoundaries() async throws {
        try await withTestServer { server in
            let session = try await server.register("cat")
            #expect(try await server.api.send(.GET, "/me").status == 401)
            #expect(try await server.api.send(.GET, "/me", token: "not-a-token").status == 401)
            #expect(try await server.api.send(.POST, "/logout", token: session.token).status == 204)
            let revoked = try await server.api.send(.GET, "/me", token: session.token)
            #expect(revoked.status == 401)
            #expect(try revoked.decode(APIErrorBody.self).code == .unauthorized)
            #expect(revoked.headers.first(name: "WWW-Authenticate") == "Bearer")
        }
        try await withTestServer({ $0.tokenLifetime = -1 }) { server in
            let expired = try await server.register("dan")
            #expect(try await server.api.send(.GET, "/me", token: expired.token).status == 401)
        }
    }

    @Test("tokens are stored only as hashes")
    func tokensAreHashed() async throws {
        try await withTestServer { server in
            let session = try await server.register("eve")
            let directory = URL(fileURLWithPath: server.configuration.dataDirectory)
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                let bytes = try Data(contentsOf: directory.appendingPathComponent(file))
                #expect(bytes.range(of: Data(session.token.utf8)) == nil, "token found in \(file)")
            }
        }
    }

    @Test func updateMyProfile() async throws {
        try await withTestServer { server in
            let session = try await server.register("fay")
            let updated = try await server.api.send(
                .PATCH, "/me", json: ProfileUpdate(displayName: "  Fay Wray ", avatarColor: "#12ab9f"),
                token: session.token)
            #expect(updated.status == 200)
            let profile = try updated.decode(UserProfile.self)
            #expect(profile.displayName == "Fay Wray" && profile.avatarColor == "#12AB9F" && profile.initials == "FW")
            let bad = try await server.api.send(
                .PATCH, "/me", json: ProfileUpdate(avatarColor: "red"), token: session.token)
            #expect(bad.status == 400)
            #expect(try bad.decode(APIErrorBody.self).code == .invalidAvatarColor)
            #expect(try await server.api.send(.GET, "/me", token: session.token).decode(UserProfile.self) == profile)
        }
    }

    @Test("finding people by username or display name, signed in only")
    func searchUsers() async throws {
        try await withTestServer { server in
            let session = try await server.register("gus", displayName: "Gus Grissom")
            _ = try await server.register("hal", displayName: "Hal Nine")
            _ = try await server.register("ivy")
            #expect(try await server.api.send(.GET, "/users?query=gus").status == 401)
            let byName = try await server.api.send(.GET, "/users?query=NINE", token: session.token).decode(
                [UserProfile].self)
            #expect(byName.map(\.username) == ["hal"])
            let all = try await server.api.send(.GET, "/users?query=", token: session.token).decode([UserProfile].self)
            #expect(all.map(\.username) == ["gus", "hal", "ivy"])
            let wildcard = try await server.api.send(.GET, "/users?query=%25", token: session.token)
            #expect(wildcard.status == 200)
        }
    }

    @Test("login attempts are rate limited per username: 429 with Retry-After, even for the right password")
    func loginRateLimit() async throws {
        try await withTestServer { server in
            _ = try await server.register("jon", password: "right password")
            for _ in 0..<10 {
                let reply = try await server.api.send(
                    .POST, "/login", json: LoginRequest(username: "jon", password: "wrong password"))
                #expect(reply.status == 401)
            }
            let limited = try await server.api.send(
                .POST, "/login", json: LoginRequest(username: "jon", password: "right password"))
            #expect(limited.status == 429)
            #expect(try limited.decode(APIErrorBody.self).code == .rateLimited)
            #expect(Int(limited.headers.first(name: "Retry-After") ?? "") ?? 0 > 0)
        }
    }
}
