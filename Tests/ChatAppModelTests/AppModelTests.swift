import ChatAppModel
import ChatClient
import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import Testing

@MainActor
@Suite("AppModel against a real server")
struct AppModelTests {
    @Test("sign in, open the lobby, send: the bubble goes pending → sent; another room's message raises its badge")
    func endToEnd() async throws {
        let server = try await TestServer.start()
        defer { try? FileManager.default.removeItem(atPath: server.configuration.dataDirectory) }
        do {
            let address = ServerAddress(host: server.host, port: server.httpPort)
            let bob = ChatClient(server: address)
            try await bob.register(username: "bob", password: "correct horse")
            let app = AppModel()
            await app.signIn(server: address, username: "ann", password: "correct horse", register: true)
            #expect(app.signInError == nil)
            try await eventually("connected") { app.connection == .connected && app.statusText.isEmpty }
            let lobby = try #require(await app.open(room: "lobby"))
            lobby.send("hello from the app")
            #expect(lobby.items.last?.delivery == .pending)
            try await eventually("sent") { lobby.items.map(\.text) == ["hello from the app"] && lobby.items.last?.delivery == .sent }
            // bob opens a direct room with ann and writes: it comes first in ann's list, with a badge
            let dm = try await bob.directRoom(with: "ann")
            _ = await bob.connect()
            try await bob.send("psst", to: dm.id)
            try await eventually("dm on top with a badge") { app.chats.rows.first?.id == dm.id && app.chats.rows.first?.unread == 1 }
            await bob.stop()
            await app.signOut()
        }
        await server.stop()
    }

    @Test("a wrong password shows on the sign-in screen")
    func wrongPassword() async throws {
        let server = try await TestServer.start()
        defer { try? FileManager.default.removeItem(atPath: server.configuration.dataDirectory) }
        do {
            let address = ServerAddress(host: server.host, port: server.httpPort)
            _ = try await ChatAPI(server: address).register(username: "ann", password: "correct horse")
            let app = AppModel()
            await app.signIn(server: address, username: "ann", password: "wrong password")
            #expect(app.signInError?.contains("invalid_credentials") == true)
            #expect(app.client == nil)
        }
        await server.stop()
    }
}
