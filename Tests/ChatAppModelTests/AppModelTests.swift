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
            try await eventually("sent") {
                lobby.items.map(\.text) == ["hello from the app"] && lobby.items.last?.delivery == .sent
            }
            // bob opens a direct room with ann and writes: it comes first in ann's list, with a badge
            let dm = try await bob.directRoom(with: "ann")
            _ = await bob.connect()
            try await bob.send("psst", to: dm.id)
            try await eventually("dm on top with a badge") {
                app.chats.rows.first?.id == dm.id && app.chats.rows.first?.unread == 1
            }
            await bob.stop()
            await app.signOut()
        }
        await server.stop()
    }

    @Test("the server restarts: the status line says so, a message sent meanwhile stays pending, then is sent once")
    func serverRestart() async throws {
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess.start(dataDirectory: directory, arguments: ["--bcrypt-cost", "4"])
        let app = AppModel()
        await app.signIn(
            server: ServerAddress(host: "127.0.0.1", port: server.httpPort), username: "ann", password: "correct horse",
            register: true)
        try await eventually("connected") { app.connection == .connected && app.statusText.isEmpty }
        let lobby = try #require(await app.open(room: "lobby"))
        // act: the server goes away, ann writes, the server comes back
        await server.terminate()
        try await eventually("the status line says offline") { app.connection != .connected && !app.statusText.isEmpty }
        lobby.send("written while away")
        #expect(lobby.items.last?.delivery == .pending)
        let restarted = try await ServerProcess.start(
            dataDirectory: directory, httpPort: server.httpPort, tcpPort: server.tcpPort,
            arguments: ["--bcrypt-cost", "4"])
        // validate
        try await eventually("back and sent", within: .seconds(40)) {
            app.statusText.isEmpty && lobby.items.last?.delivery == .sent
        }
        #expect(lobby.items.filter { $0.text == "written while away" }.count == 1)
        let stored = try await #require(app.client).history(room: "lobby").messages
        #expect(stored.filter { $0.text == "written while away" }.count == 1)
        await app.signOut()
        await restarted.terminate()
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
