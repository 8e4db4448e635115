import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOConcurrencyHelpers
import Testing

/// `--config FILE` (README, "Configuration"), `--version`, and a SIGHUP during start-up (issue 35).
@Suite("Configuration file, version and start-up signals")
struct ConfigFileTests {
    static func file(_ text: String) throws -> String {
        let path = TestServer.makeTemporaryDirectory() + "/chat.env"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("flags win over the environment, the environment over the file, the file over the defaults")
    func precedence() throws {
        let path = try Self.file(
            """
            # SwiftChat, as systemd's EnvironmentFile= reads it
            CHAT_PORT=1111
            CHAT_TCP_PORT = 2222
            ; another comment

            CHAT_HISTORY_ON_JOIN="7"
            CHAT_NODE_NAME='chat-file'\r
            """)
        let configuration = try ServerConfiguration.resolve(
            arguments: ["--config", path, "--port", "4444"], environment: ["CHAT_TCP_PORT": "3333"])
        #expect(configuration.port == 4444, "the flag")
        #expect(configuration.tcpPort == 3333, "the environment")
        #expect(configuration.historyOnJoin == 7 && configuration.nodeName == "chat-file", "the file, unquoted")
        #expect(configuration.maxMessageBytes == ServerConfiguration().maxMessageBytes, "the default")
        let equals = try ServerConfiguration.resolve(arguments: ["--config=\(path)"], environment: [:])
        #expect(equals.port == 1111 && equals.tcpPort == 2222)
    }

    @Test("an unknown key, a line without '=', a bad value and a missing file are errors that say where")
    func mistakes() throws {
        let path = try Self.file("CHAT_PORT=80\nCHAT_PROT=8080\nnot a setting\nCHAT_TCP_PORT=seventy\n")
        do {
            _ = try ServerConfiguration.resolve(arguments: ["--config", path], environment: [:])
            Issue.record("a file with mistakes was accepted")
        } catch let invalid as ServerConfiguration.InvalidSettings {
            let text = invalid.description
            #expect(text.contains("\(path):2: unknown key 'CHAT_PROT'"), "\(text)")
            #expect(text.contains("\(path):3: expected KEY=value"), "\(text)")
            #expect(text.contains("CHAT_TCP_PORT at \(path):4"), "\(text)")
        }
        #expect(throws: ServerConfiguration.InvalidSettings.self) {
            try ServerConfiguration.resolve(arguments: ["--config", path + ".missing"], environment: [:])
        }
        #expect(throws: ServerConfiguration.InvalidSettings.self) {
            try ServerConfiguration.resolve(arguments: ["--config"], environment: [:])
        }
    }

    @Test("the tools read the server's file too: the settings they take, ignoring the others; a flag still wins")
    func tools() throws {
        let path = try Self.file("CHAT_DATA_DIR=/var/lib/swiftchat\nCHAT_PORT=8080\n")
        let (configuration, own) = try ServerConfiguration.resolve(
            tool: "backup", arguments: ["--config", path, "--to", "/backups/today"], environment: [:],
            settings: ["data-dir"], required: ["to": "DIR"])
        #expect(configuration.dataDirectory == "/var/lib/swiftchat" && own["to"] == "/backups/today")
        let flagged = try ServerConfiguration.resolve(
            tool: "backup", arguments: ["--config", path, "--to", "x", "--data-dir", "elsewhere"], environment: [:],
            settings: ["data-dir"], required: ["to": "DIR"])
        #expect(flagged.configuration.dataDirectory == "elsewhere")
        let needed = try ServerConfiguration.resolve(
            tool: "migrate-to-postgres",
            arguments: [
                "--config", try Self.file("DATABASE_URL=postgres://chat@db.internal/chat\n"),
                "--from", "x",
            ], environment: [:], settings: ["database-url"], needed: ["database-url": "URL"],
            required: ["from": "FILE"])
        #expect(needed.configuration.databaseURL != nil)
    }

    @Test("backup with a PostgreSQL node's file says to use pg_dump instead of looking for a SQLite file")
    func backupOnPostgres() async throws {
        let path = try Self.file("DATABASE_URL=postgres://chat@db.internal/chat\nCHAT_PORT=8080\n")
        do {
            _ = try await Backup.run(arguments: ["--config", path, "--to", path + ".backup"], environment: [:])
            Issue.record("backup ran against a PostgreSQL node's settings")
        } catch let failure as ToolFailure {
            #expect(String(describing: failure).contains("pg_dump"), "\(failure)")
        }
        #expect(!FileManager.default.fileExists(atPath: path + ".backup"))
    }

    @Test("chat-server --config FILE starts with the file's settings; chat-server and chat --version print one version")
    func realProcess() async throws {
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try Self.file("CHAT_NODE_NAME=from-the-file\n")
        let server = try await ServerProcess.start(dataDirectory: directory, arguments: ["--config", path])
        let ready = try await APIClient(baseURL: "http://127.0.0.1:\(server.httpPort)").get("/readyz")
        #expect(try JSONDecoder().decode(ReadinessReport.self, from: ready.body).node == "from-the-file")
        #expect(await server.terminate() == 0)

        let serverVersion = try await runToEnd(try #require(ServerProcess.executableURL), arguments: ["--version"])
        #expect(serverVersion.status == 0 && serverVersion.output == SwiftChatVersion.current + "\n")
        let chat = try #require(builtExecutable(named: "chat"))
        let chatVersion = try await runToEnd(chat, arguments: ["--version"])
        #expect(chatVersion.status == 0 && chatVersion.output == SwiftChatVersion.current + "\n")
    }

    @Test("a port another server holds stops start-up with a message naming the setting: --port, --tcp-port")
    func portsInUse() async throws {
        let first = try await TestServer.start()
        for (flag, taken) in [("--port", (first.httpPort, 0)), ("--tcp-port", (0, first.tcpPort))] {
            do {
                let second = try await TestServer.start {
                    $0.port = taken.0
                    $0.tcpPort = taken.1
                }
                await second.stop()
                Issue.record("a second server started on a port in use (\(flag))")
            } catch {
                let port = flag == "--port" ? first.httpPort : first.tcpPort
                #expect("\(error)".hasPrefix("\(flag) \(port): cannot listen on"), "\(error)")
                #expect("\(error)".contains("choose another port with \(flag)"), "\(error)")
            }
        }
        await first.stop()
    }

    @Test("a SIGHUP while the server starts does not end it: it starts and serves")
    func hangUpWhileStarting() async throws {
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let signalled = NIOLockedValueBox(false)
        let server = try await ServerProcess.start(dataDirectory: directory, arguments: ["--log-level", "info"]) {
            _, signal in
            let first = signalled.withLockedValue { sent in
                defer { sent = true }
                return !sent
            }
            if first { signal(SIGHUP) }
        }
        #expect(signalled.withLockedValue { $0 }, "no line came before the listeners to signal at")
        #expect(try await APIClient(baseURL: "http://127.0.0.1:\(server.httpPort)").get("/healthz").status == 200)
        #expect(await server.terminate() == 0)
    }
}
