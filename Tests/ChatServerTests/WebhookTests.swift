import ChatProtocol
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// Incoming webhooks (PROTOCOL.md §9.14) over real HTTP and WebSocket connections, on SQLite and PostgreSQL: what
/// Slack's senders post (JSON, or the form field `payload`) becomes a message of the room from the webhook.
@Suite("Incoming webhooks: Slack-shaped messages from other software")
struct WebhookTests {
    /// Ann owns a group with Bob, and has made the webhook "CI" for it.
    struct Setup {
        let ann: AuthSession
        let bob: AuthSession
        let group: RoomSummary
        let webhook: WebhookPayload
        /// The path of the webhook's secret URL (`/hooks/SECRET`).
        let path: String
        let hooks: APIClient
    }

    static func setUp(_ server: TestServer) async throws -> Setup {
        let ann = try await server.register("ann")
        let bob = try await server.register("bob")
        let group = try await server.api.send(
            .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "Builds", members: ["bob"]), token: ann.token
        ).decode(RoomSummary.self)
        let created = try await server.api.send(
            .createWebhook, group.id, json: WebhookCreateRequest(name: "CI"), token: ann.token)
        #expect(created.status == 201)
        let webhook = try created.decode(WebhookPayload.self)
        let url = try #require(webhook.url.flatMap(URL.init(string:)))
        #expect(url.path.hasPrefix("/hooks/") && url.path.count > 20)
        return Setup(
            ann: ann, bob: bob, group: group, webhook: webhook, path: url.path,
            hooks: APIClient(baseURL: "http://\(server.host):\(server.httpPort)"))
    }

    static func post(_ json: String, to setup: Setup, path: String? = nil) async throws -> APIClient.Reply {
        try await setup.hooks.send(
            .POST, path ?? setup.path, bytes: Array(json.utf8), contentType: "application/json")
    }

    @Test(
        "Slack's JSON and form bodies become the webhook's messages: its name, a webhook sender, markup made plain, <!channel> mentioning everyone"
    )
    func posts() async throws {
        try await withTestServer { server in
            let setup = try await Self.setUp(server)
            let bobSocket = try await server.modernClient(setup.bob)
            _ = try await bobSocket.next(.resumed, as: ResumedFrame.self)

            let reply = try await Self.post(
                #"{"text":"<https://ci.example.org/42|Build 42> passed <!channel>","username":"admin","icon_url":"https://x/i.png"}"#,
                to: setup)
            #expect(reply.status == 200 && String(decoding: reply.body, as: UTF8.self) == "ok")
            let message = try await bobSocket.nextEvent(.message)
            #expect(message.text == "Build 42 (https://ci.example.org/42) passed @all")
            #expect(message.sender == SenderPayload(id: setup.webhook.id, name: "CI", via: "webhook"))
            #expect(message.mentionsAll == true)

            let payload =
                #"{"attachments":[{"pretext":"main","title":"Build 43","title_link":"https://ci/43","text":"failed: 2 tests"}]}"#
            let form = "payload=" + payload.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let formReply = try await setup.hooks.send(
                .POST, setup.path, bytes: Array(form.utf8), contentType: "application/x-www-form-urlencoded")
            #expect(formReply.status == 200)
            #expect(try await bobSocket.nextEvent(.message).text == "main\nBuild 43 (https://ci/43)\nfailed: 2 tests")

            let list = try await server.api.send(.webhooks, setup.group.id, token: setup.ann.token)
                .decode(WebhookList.self)
            #expect(list.webhooks.map(\.id) == [setup.webhook.id])
            #expect(list.webhooks.first?.url == nil && list.webhooks.first?.createdBy == setup.ann.user.id)
            // History and search see the webhook's messages like any others.
            let page = try await server.api.send(.history, setup.group.id, token: setup.bob.token)
                .decode(HistoryPage.self)
            #expect(page.messages.filter { $0.sender.via == "webhook" }.count == 2)
        }
    }

    @Test("bad bodies, unknown secrets, long texts and bursts are refused in Slack's words, and store nothing")
    func refusedPosts() async throws {
        try await withTestServer { server in
            let setup = try await Self.setUp(server)
            let cases: [(String, Int, String)] = [
                (#"{"username":"ci"}"#, 400, "no_text"),
                (#"{"text":"   "}"#, 400, "no_text"),
                ("not json", 400, "invalid_payload"),
                (#"{"text":7}"#, 400, "invalid_payload"),
                (#"{"text":"\#(String(repeating: "a", count: 5000))"}"#, 413, "too_long"),
            ]
            for (body, status, answer) in cases {
                let reply = try await Self.post(body, to: setup)
                #expect(reply.status == status, "\(body.prefix(40))")
                #expect(String(decoding: reply.body, as: UTF8.self) == answer)
            }
            // A body over 64 KiB is not read at all (Slack's attachments included, a message is far smaller).
            let huge = try await Self.post(#"{"text":"\#(String(repeating: "b", count: 70_000))"}"#, to: setup)
            #expect(huge.status == 413)
            let unknown = try await Self.post(#"{"text":"hi"}"#, to: setup, path: "/hooks/not-a-secret")
            #expect(unknown.status == 404 && String(decoding: unknown.body, as: UTF8.self) == "no_service")
            let page = try await server.api.send(.history, setup.group.id, token: setup.ann.token)
                .decode(HistoryPage.self)
            #expect(!page.messages.contains { $0.sender.via == "webhook" })

            // A burst, then the rate (one a second refills, so a slow machine may get a few more through).
            var accepted = 0
            var limited: APIClient.Reply?
            while limited == nil, accepted < 60 {
                let reply = try await Self.post(#"{"text":"tick \#(accepted)"}"#, to: setup)
                if reply.status == 429 { limited = reply } else { accepted += 1 }
            }
            #expect(accepted >= 30)
            let refusal = try #require(limited)
            #expect(String(decoding: refusal.body, as: UTF8.self) == "rate_limited")
            #expect(refusal.headers.first(name: "Retry-After") != nil)
        }
    }

    @Test(
        "only the room's owner and moderators (and an administrator in it) manage its webhooks, 20 at most; a deleted webhook's URL stops at once"
    )
    func management() async throws {
        try await withTestServer { server in
            let setup = try await Self.setUp(server)
            let carol = try await server.register("carol")
            let dm = try await server.api.send(
                .POST, "/dms", json: UsernameRequest(username: "bob"), token: setup.ann.token
            ).decode(RoomSummary.self)
            let attempts: [(APIRoute, [String], String, (any Encodable & Sendable)?, Int, ErrorCode)] = [
                (.createWebhook, [setup.group.id], setup.bob.token, WebhookCreateRequest(name: "x"), 403, .notAllowed),
                (.webhooks, [setup.group.id], setup.bob.token, nil, 403, .notAllowed),
                (
                    .deleteWebhook, [setup.group.id, setup.webhook.id.uuidString], setup.bob.token, nil, 403,
                    .notAllowed
                ),
                (.createWebhook, [setup.group.id], carol.token, WebhookCreateRequest(name: "x"), 403, .forbidden),
                (.createWebhook, [dm.id], setup.ann.token, WebhookCreateRequest(name: "x"), 400, .cannotModerate),
                (.createWebhook, [setup.group.id], setup.ann.token, WebhookCreateRequest(name: " "), 400, .invalidName),
                (.deleteWebhook, [setup.group.id, UUID().uuidString], setup.ann.token, nil, 404, .unknownWebhook),
            ]
            for (route, arguments, token, body, status, code) in attempts {
                let reply = try await server.api.send(route, arguments: arguments, json: body, token: token)
                #expect(reply.status == status, "\(route)")
                #expect(try reply.decode(APIErrorBody.self).code == code, "\(route)")
            }
            // An administrator who is a member, with no role in the room, may.
            _ = try await server.admin("grant", "carol")
            _ = try await server.api.send(
                .invite, setup.group.id, json: UsernameRequest(username: "carol"), token: setup.ann.token)
            #expect(try await server.api.send(.webhooks, setup.group.id, token: carol.token).status == 200)
            // Bob, made a moderator, may.
            _ = try await server.api.send(
                .setRole, setup.group.id, setup.bob.user.id.uuidString, json: RoleChange(role: "moderator"),
                token: setup.ann.token)
            let bobs = try await server.api.send(
                .createWebhook, setup.group.id, json: WebhookCreateRequest(name: "Alerts"), token: setup.bob.token)
            #expect(bobs.status == 201)

            // A room keeps at most 20 webhooks (Alerts and the setup's make two).
            for index in 2..<20 {
                let made = try await server.api.send(
                    .createWebhook, setup.group.id, json: WebhookCreateRequest(name: "hook \(index)"),
                    token: setup.ann.token)
                #expect(made.status == 201)
            }
            let over = try await server.api.send(
                .createWebhook, setup.group.id, json: WebhookCreateRequest(name: "one more"), token: setup.ann.token)
            #expect(over.status == 409)
            #expect(try over.decode(APIErrorBody.self).code == .tooManyWebhooks)

            #expect(try await Self.post(#"{"text":"before"}"#, to: setup).status == 200)
            let deleted = try await server.api.send(
                .deleteWebhook, setup.group.id, setup.webhook.id.uuidString, token: setup.ann.token)
            #expect(deleted.status == 204)
            #expect(try await Self.post(#"{"text":"after"}"#, to: setup).status == 404)
            let names = try await server.api.send(.webhooks, setup.group.id, token: setup.ann.token)
                .decode(WebhookList.self).webhooks.map(\.name)
            #expect(names.first == "Alerts" && names.count == 19)
            let page = try await server.api.send(.history, setup.group.id, token: setup.ann.token)
                .decode(HistoryPage.self)
            #expect(page.messages.contains { $0.text == "before" } && !page.messages.contains { $0.text == "after" })
        }
    }
}
