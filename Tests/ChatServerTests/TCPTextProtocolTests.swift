import ChatServer
import ChatTestSupport
import NIOCore
import Testing

extension TestServer {
    func lineClient() async throws -> LineClient {
        try await LineClient.connect(host: self.host, port: self.tcpPort)
    }

    /// A TCP client that has joined as `name` and seen its own join line.
    func joinedLineClient(_ name: String) async throws -> LineClient {
        let client = try await self.lineClient()
        try await client.write("iam:\(name)\n")
        try await client.waitForLine("\(name) has joined")
        return client
    }
}

@Suite("TCP text protocol: DogeChat and nc (PROTOCOL.md §2)")
struct TCPTextProtocolTests {
    @Test("iam: is announced to every TCP client, the joiner included, and nothing else is sent")
    func join() async throws {
        try await withTestServer { server in
            let luke = try await server.joinedLineClient("Luke")
            let gregg = try await server.lineClient()
            try await gregg.write("iam:gregg\n")
            #expect(try await gregg.nextLine() == "gregg has joined")
            #expect(try await luke.nextLine() == "gregg has joined")
        }
    }

    @Test("msg: reaches every client as NAME:TEXT, colons kept")
    func message() async throws {
        try await withTestServer { server in
            let luke = try await server.joinedLineClient("Luke")
            let gregg = try await server.joinedLineClient("gregg")
            try await luke.waitForLine("gregg has joined")
            try await gregg.write("msg:Ay mang, wut's good? time: 12:30\r\n")
            #expect(try await gregg.nextLine() == "gregg:Ay mang, wut's good? time: 12:30")
            #expect(try await luke.nextLine() == "gregg:Ay mang, wut's good? time: 12:30")
        }
    }

    @Test("the iOS client's unterminated writes each count as one command after a pause")
    func unterminatedCommands() async throws {
        try await withTestServer { server in
            let client = try await server.lineClient()
            try await client.write("iam:Luke")
            #expect(try await client.nextLine() == "Luke has joined")
            try await client.write("msg:Hey, how goes it, man?")
            #expect(try await client.nextLine() == "Luke:Hey, how goes it, man?")
        }
    }

    @Test func severalCommandsInOneWrite() async throws {
        try await withTestServer { server in
            let client = try await server.lineClient()
            try await client.write("iam:Ann\nmsg:one\r\nmsg:two\nmsg:three")
            #expect(try await client.nextLine() == "Ann has joined")
            #expect(try await client.nextLine() == "Ann:one")
            #expect(try await client.nextLine() == "Ann:two")
            #expect(try await client.nextLine() == "Ann:three")
        }
    }

    @Test func leavingIsAnnouncedOnCloseAndOnReset() async throws {
        try await withTestServer { server in
            let watcher = try await server.joinedLineClient("watcher")
            let polite = try await server.joinedLineClient("polite")
            let rude = try await server.joinedLineClient("rude")
            try await watcher.waitForLine("rude has joined")
            await polite.close()
            try await watcher.waitForLine("polite has left")
            await rude.reset()
            try await watcher.waitForLine("rude has left")
        }
    }

    @Test(
        "mistakes get one err: line and the connection stays open",
        arguments: [
            ("msg:too early\n", "err:send iam:NAME before msg:TEXT"),
            ("hello\n", "err:unknown command, expected iam:NAME or msg:TEXT"),
            ("iam:\n", "err:name must be 1 to 64 bytes, without ':' or control characters"),
            (
                "iam:\(String(repeating: "n", count: 65))\n",
                "err:name must be 1 to 64 bytes, without ':' or control characters"
            ),
            ("\(String(repeating: "x", count: 5000))\n", "err:line is longer than 4096 bytes"),
        ])
    func errors(input: String, expected: String) async throws {
        try await withTestServer { server in
            let client = try await server.lineClient()
            try await client.write(input)
            #expect(try await client.nextLine() == expected)
            try await client.write("iam:still\nmsg:here\n")
            #expect(try await client.nextLine() == "still has joined")
            #expect(try await client.nextLine() == "still:here")
        }
    }

    @Test func invalidUTF8GetsAnError() async throws {
        try await withTestServer { server in
            let client = try await server.joinedLineClient("Ann")
            try await client.write(bytes: Array("msg:".utf8) + [0xFF, 0xFE, 0x0A])
            #expect(try await client.nextLine() == "err:line is not valid UTF-8")
            try await client.write("msg:fine\n")
            #expect(try await client.nextLine() == "Ann:fine")
        }
    }

    @Test("an over-long line is discarded up to its end, even when it arrives in pieces")
    func overlongLineInPieces() async throws {
        // The pieces must not be taken for commands of their own when a loaded machine delays one past 100 ms.
        try await withTestServer({ $0.tcpIdleFlush = .seconds(2) }) { server in
            let client = try await server.joinedLineClient("Ann")
            try await client.write("msg:" + String(repeating: "a", count: 3000))
            try await client.write(String(repeating: "b", count: 3000))
            try await client.write(String(repeating: "c", count: 100) + "\nmsg:next\n")
            #expect(try await client.nextLine() == "err:line is longer than 4096 bytes")
            #expect(try await client.nextLine() == "Ann:next")
        }
    }
}
