import ChatClient
import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import Testing

/// Runs the built `chat` executable to its end; returns its exit status and standard output.
private func runChat(_ arguments: [String], environment: [String: String] = [:], input: String? = nil) async throws -> (
    status: Int32, output: String
) {
    try await runToEnd(try chatExecutable(), arguments: arguments, environment: environment, input: input)
}

/// The built `chat` executable.
func chatExecutable() throws -> URL {
    guard let executable = builtExecutable(named: "chat") else {
        throw TestClientError("chat was not found beside \(CommandLine.arguments[0]); run `swift build` first")
    }
    return executable
}

@Suite("The chat executable: scripting, exit codes, config file")
struct CLITests {
    @Test("login saves a 0600 config; send and tail --json work from it; failures have their exit codes")
    func scripting() async throws {
        try await withTestServer { server in
            // setup
            let config = TestServer.makeTemporaryDirectory() + "/chat/config.json"
            let environment = ["CHAT_CONFIG": config, "CHAT_PASSWORD": "correct horse"]
            let serverURL = "http://\(server.host):\(server.httpPort)"
            // act and validate: login --register
            let login = try await runChat(
                ["login", "--server", serverURL, "-u", "ann", "--register"], environment: environment)
            #expect(login.status == 0)
            let permissions = try FileManager.default.attributesOfItem(atPath: config)[.posixPermissions] as? Int
            #expect(permissions == 0o600)
            // send, using the saved session only
            let sent = try await runChat(
                ["send", "--room", "lobby", "--json", "hello from a script"], environment: ["CHAT_CONFIG": config])
            #expect(sent.status == 0)
            let ack = try JSONDecoder().decode(Ack.self, from: Data(sent.output.utf8))
            #expect(ack.room == "lobby" && ack.seq == 1)
            // tail --json prints the history as one JSON object per line
            let tail = try await runChat(
                ["tail", "--room", "lobby", "--json", "--history", "5", "--count", "0"],
                environment: ["CHAT_CONFIG": config])
            let lines = tail.output.split(separator: "\n")
            #expect(lines.count == 1)
            let message = try JSONDecoder().decode(MessagePayload.self, from: Data(lines[0].utf8))
            #expect(message.text == "hello from a script" && message.sender.name == "ann")
            // exit codes
            #expect(
                try await runChat(["send", "--room", "no-such-room", "x"], environment: ["CHAT_CONFIG": config]).status
                    == 65)
            let wrong = ["CHAT_CONFIG": config + ".other", "CHAT_PASSWORD": "not the password"]
            #expect(
                try await runChat(["send", "--server", serverURL, "-u", "ann", "x"], environment: wrong).status == 77)
            let nowhere = ["CHAT_CONFIG": config + ".other", "CHAT_PASSWORD": "x"]
            #expect(
                try await runChat(["send", "--server", "http://127.0.0.1:1", "-u", "ann", "x"], environment: nowhere)
                    .status == 69)
            #expect(try await runChat(["send", "--server", "not a url", "x"], environment: nowhere).status == 64)
        }
    }

    @Test(
        "in a shell pipeline: piped text is sent as one message, tail --json prints live events and exits after --count"
    )
    func pipeline() async throws {
        try await withTestServer { server in
            let config = TestServer.makeTemporaryDirectory() + "/chat/config.json"
            let serverURL = "http://\(server.host):\(server.httpPort)"
            let ann = try #require(await server.client(registering: "ann").session)
            let bob = try #require(await server.client(registering: "bob").session)
            #expect(
                try await runChat(
                    ["login", "--server", serverURL, "-u", "ann"],
                    environment: ["CHAT_CONFIG": config, "CHAT_PASSWORD": "correct horse"]
                ).status == 0)
            let tail = try InteractiveProcess(
                try chatExecutable(),
                arguments: ["tail", "--room", "lobby", "--json", "--history", "0", "--count", "2"],
                environment: ["CHAT_CONFIG": config])
            // Once ann is online, tail has read where the room stands: what is sent from now on is new to it.
            let api = ChatAPI(server: server.address)
            try await eventually("tail is online as ann") { try await api.user(ann.user.id, token: bob.token).online }
            let first = try await runChat(
                ["send", "--room", "lobby"], environment: ["CHAT_CONFIG": config], input: "line one\nline two\n")
            #expect(first.status == 0 && first.output.hasPrefix("sent #1"))
            #expect(
                try await runChat(["send", "--room", "lobby", "second"], environment: ["CHAT_CONFIG": config]).status
                    == 0)
            #expect(await tail.waitForExit() == 0)
            let printed = try tail.output.drain().map {
                try JSONDecoder().decode(MessagePayload.self, from: Data($0.utf8))
            }
            #expect(printed.map(\.text) == ["line one\nline two", "second"])
            #expect(printed.map(\.seq) == [1, 2])
        }
    }

    @Test("chat tcp and chat chat-ws talk to each other through the lobby")
    func tutorialCommands() async throws {
        try await withTestServer { server in
            let luke = try InteractiveProcess(
                try chatExecutable(), arguments: ["tcp", "\(server.host):\(server.tcpPort)", "--name", "luke"])
            try await luke.lines(through: "luke has joined")
            // (a /chat client is announced with its first message, as in the tutorial)
            let ann = try InteractiveProcess(
                try chatExecutable(),
                arguments: ["chat-ws", "ws://\(server.host):\(server.httpPort)/chat", "--name", "Ann"])
            ann.type("hi luke")
            try await luke.lines(through: "Ann has joined")
            try await luke.lines(through: "Ann: hi luke")
            luke.type("hey Ann")
            try await ann.lines(through: "luke: hey Ann")
            ann.type("/quit")
            luke.type("/quit")
            #expect(await ann.waitForExit() == 0)
            #expect(await luke.waitForExit() == 0)
        }
    }
}
