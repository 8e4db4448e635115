import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// Pictures for accounts and rooms (PROTOCOL.md §6.5, §7.7) on SQLite and PostgreSQL: kept as uploads are, served to
/// anyone under an address that changes with the picture, never swept as an unsent upload.
@Suite("Avatars: pictures for people and rooms")
struct AvatarTests {
    static func putPicture(_ bytes: [UInt8], at path: String, token: String, on server: TestServer) async throws
        -> APIClient.Reply
    {
        try await server.api.send(.PUT, path, bytes: bytes, contentType: "image/png", token: token)
    }

    static func files(of server: TestServer) -> Set<String> {
        let names = FileManager.default.enumerator(atPath: server.configuration.attachmentsDirectory)?.compactMap {
            $0 as? String
        }
        return Set((names ?? []).filter { $0.count > 40 })
    }

    @Test(
        "my picture: set, seen by others in profiles, members and our direct room, served to anyone with long cache headers; a new one gets a new address and the old one is gone; removed, the colour is back"
    )
    func myPicture() async throws {
        try await withTestServer { server in
            let (ann, bob, dm, _, _) = try await server.pair()
            let first = pngBytes(width: 256, height: 256)
            let set = try await Self.putPicture(first, at: "/me/avatar", token: ann.token, on: server)
            #expect(set.status == 200)
            let firstURL = try #require(try set.decode(UserProfile.self).avatarURL)
            #expect(try await server.api.send(.me, token: ann.token).decode(UserProfile.self).avatarURL == firstURL)

            // Anyone may fetch it, without a token, and keep it: the address changes with the picture.
            let prefix = "/" + APIRoute.prefix.joined(separator: "/")
            let served = try await server.api.get(String(firstURL.dropFirst(prefix.count)))
            #expect(served.status == 200 && Array(served.body) == first)
            #expect(served.headers.first(name: "Content-Type") == "image/png")
            #expect(served.headers.first(name: "Cache-Control") == "public, max-age=31536000, immutable")

            let seenByBob = try await server.api.send(.user, ann.user.id.uuidString, token: bob.token)
                .decode(UserDetails.self)
            #expect(seenByBob.avatarURL == firstURL)
            let bobsRooms = try await server.api.send(.rooms, token: bob.token).decode([RoomSummary].self)
            #expect(bobsRooms.first { $0.id == dm.id }?.peer?.avatarURL == firstURL)
            let members = try await server.api.send(.members, dm.id, token: bob.token)
                .decode([RoomMemberPayload].self)
            #expect(members.first { $0.profile.id == ann.user.id }?.profile.avatarURL == firstURL)

            let second = pngBytes(width: 128, height: 128)
            let secondURL = try #require(
                try await Self.putPicture(second, at: "/me/avatar", token: ann.token, on: server)
                    .decode(UserProfile.self).avatarURL)
            #expect(secondURL != firstURL)
            #expect(try await server.api.get(String(firstURL.dropFirst(prefix.count))).status == 404)
            #expect(Array(try await server.api.get(String(secondURL.dropFirst(prefix.count))).body) == second)

            let removed = try await server.api.send(.removeMyAvatar, token: ann.token)
            #expect(removed.status == 200)
            #expect(try removed.decode(UserProfile.self).avatarURL == nil)
            #expect(try await server.api.get(String(secondURL.dropFirst(prefix.count))).status == 404)
            #expect(try await server.api.send(.me, token: ann.token).decode(UserProfile.self).avatarURL == nil)
        }
    }

    @Test("a worn picture outlives the sweep of unsent uploads; a replaced one is swept a day later")
    func sweep() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let old = try await Self.putPicture(
                pngBytes(width: 2, height: 2), at: "/me/avatar", token: ann.token, on: server)
            #expect(old.status == 200)
            let worn = try #require(
                try await Self.putPicture(pngBytes(width: 3, height: 3), at: "/me/avatar", token: ann.token, on: server)
                    .decode(UserProfile.self).avatarURL)
            #expect(Self.files(of: server).count == 2)
            await server.service.sweepUnsentAttachments(now: Date().addingTimeInterval(25 * 3600))
            #expect(Self.files(of: server).count == 1, "the replaced picture went, the worn one stayed")
            let prefix = "/" + APIRoute.prefix.joined(separator: "/")
            #expect(try await server.api.get(String(worn.dropFirst(prefix.count))).status == 200)
        }
    }

    @Test(
        "a group's or channel's picture is its owner's and moderators' to set and remove, shown in every member's list; members, strangers, direct rooms and the lobby are refused"
    )
    func roomPicture() async throws {
        try await withTestServer { server in
            let (ann, bob, dm, _, _) = try await server.pair()
            let carol = try await server.register("carol")
            let group = try await server.api.send(
                .createRoom, json: CreateRoomRequest(kind: "group", name: "Trip", members: ["bob"]), token: ann.token
            ).decode(RoomSummary.self)
            let png = pngBytes(width: 64, height: 64)
            let path = "/rooms/\(group.id)/avatar"

            let refusals: [(String, String, Int, ErrorCode)] = [
                ("a member", bob.token, 403, .notAllowed), ("a stranger", carol.token, 403, .forbidden),
            ]
            for (who, token, status, code) in refusals {
                let reply = try await Self.putPicture(png, at: path, token: token, on: server)
                #expect(reply.status == status, "\(who)")
                #expect(try reply.decode(APIErrorBody.self).code == code, "\(who)")
                #expect(try await server.api.send(.removeRoomAvatar, group.id, token: token).status == status)
            }
            let direct = try await Self.putPicture(png, at: "/rooms/\(dm.id)/avatar", token: ann.token, on: server)
            #expect(direct.status == 400)
            #expect(try direct.decode(APIErrorBody.self).code == .cannotRename)
            let lobby = try await Self.putPicture(png, at: "/rooms/lobby/avatar", token: ann.token, on: server)
            #expect(lobby.status == 403)
            #expect(try lobby.decode(APIErrorBody.self).code == .notAllowed)
            #expect(Self.files(of: server).isEmpty, "nothing refused was kept")

            let set = try await Self.putPicture(png, at: path, token: ann.token, on: server)
            #expect(set.status == 200)
            let url = try set.decode(AvatarPayload.self).avatarURL
            let bobsGroup = try await server.api.send(.rooms, token: bob.token).decode([RoomSummary].self)
                .first { $0.id == group.id }
            #expect(bobsGroup?.avatarURL == url)
            let prefix = "/" + APIRoute.prefix.joined(separator: "/")
            #expect(Array(try await server.api.get(String(url.dropFirst(prefix.count))).body) == png)

            #expect(try await server.api.send(.removeRoomAvatar, group.id, token: ann.token).status == 204)
            let after = try await server.api.send(.rooms, token: bob.token).decode([RoomSummary].self)
            #expect(after.first { $0.id == group.id }?.avatarURL == nil)

            // A moderator may; a server administrator outside the room is still a stranger to it (rooms follow
            // their own roles; administrators act through Administration).
            _ = try await server.api.send(
                .setRole, group.id, bob.user.id.uuidString, json: RoleChange(role: "moderator"), token: ann.token)
            #expect(try await Self.putPicture(png, at: path, token: bob.token, on: server).status == 200)
            #expect(try await server.api.send(.removeRoomAvatar, group.id, token: bob.token).status == 204)
            _ = try await server.admin("grant", "carol")
            let administrator = try await Self.putPicture(png, at: path, token: carol.token, on: server)
            #expect(administrator.status == 403)
            #expect(try administrator.decode(APIErrorBody.self).code == .forbidden)
        }
    }

    @Test(
        "a picture that is not an image, is empty or is over 2 MiB, or comes without a token, is refused and nothing is kept"
    )
    func badPictures() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            let cases: [(String, [UInt8], String?, Int, ErrorCode)] = [
                ("text", Array("not a picture".utf8), ann.token, 415, .unsupportedType),
                ("empty", [], ann.token, 400, .emptyUpload),
                (
                    "over 2 MiB", pngBytes(width: 9, height: 9) + Array(repeating: 0, count: 2 * 1024 * 1024),
                    ann.token,
                    413, .tooLarge
                ),
                ("no token", pngBytes(width: 9, height: 9), nil, 401, .unauthorized),
            ]
            for (what, bytes, token, status, code) in cases {
                let reply = try await server.api.send(
                    .PUT, "/me/avatar", bytes: bytes, contentType: "image/png", token: token)
                #expect(reply.status == status, "\(what)")
                #expect(try reply.decode(APIErrorBody.self).code == code, "\(what)")
            }
            #expect(Self.files(of: server).isEmpty)
            #expect(try await server.api.send(.me, token: ann.token).decode(UserProfile.self).avatarURL == nil)
            #expect(try await server.api.get("/avatars/\(UUID())").status == 404)
            #expect(try await server.api.get("/avatars/not-an-id").status == 404)
        }
    }
}
