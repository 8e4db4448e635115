import ChatServer
import Foundation
import Testing

@Suite("Settings are declared once: the README's table is theirs")
struct SettingsTableTests {
    /// The table between `<!-- settings -->` and `<!-- /settings -->` in README.md.
    private static func readmeTable() throws -> String {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let start = text.range(of: "<!-- settings -->\n"), let end = text.range(of: "\n<!-- /settings -->") else {
            Issue.record("README.md has no <!-- settings --> … <!-- /settings --> block")
            return ""
        }
        return String(text[start.upperBound..<end.lowerBound])
    }

    @Test("the README lists every setting with its variable, meaning, default and accepted values")
    func readmeMatchesTheSettings() throws {
        let expected = ServerConfiguration.markdownTable
        let actual = try Self.readmeTable()
        #expect(actual == expected, "README.md's settings table differs; replace it with:\n\(expected)")
    }

    @Test("flags and variables are unique, and every flag appears in --help")
    func flagsAreUnique() {
        let settings = ServerConfiguration.settings
        #expect(Set(settings.map(\.flag)).count == settings.count)
        #expect(Set(settings.map(\.variable)).count == settings.count)
        for setting in settings {
            #expect(ServerConfiguration.helpText.contains(setting.option + " "))
        }
    }

    @Test("an unknown flag and bad values are all reported at once, naming each")
    func problemsTogether() {
        #expect {
            try ServerConfiguration.resolve(
                arguments: ["--port", "abc", "--bogus", "1", "--idle-timeout=0"], environment: [:])
        } throws: { error in
            let description = "\(error)"
            return description.contains("--bogus") && description.contains("--port / CHAT_PORT")
                && description.contains("--idle-timeout / CHAT_IDLE_TIMEOUT") && !description.contains("'1'")
        }
        let configuration = try? ServerConfiguration.resolve(
            arguments: ["--port=9000", "--max-connections", "7"],
            environment: ["CHAT_PORT": "1", "CHAT_TCP_PORT": "9001"])
        #expect(configuration?.port == 9000)
        #expect(configuration?.tcpPort == 9001)
        #expect(configuration?.maxConnections == 7)
    }

    @Test(
        "a tool reads the server settings it takes through the table: flag over variable, the same checks, others ignored"
    )
    func toolsReadTheirSettings() throws {
        let (configuration, own) = try ServerConfiguration.resolve(
            tool: "migrate-to-postgres", arguments: ["--from", "a.sqlite", "--attachments-store=postgres"],
            environment: [
                "DATABASE_URL": "postgres://chat@db.example/chat", "CHAT_ATTACHMENTS_STORE": "files",
                "CHAT_PORT": "not a port",
            ],
            settings: ["database-url", "attachments-store", "attachments-dir"], required: ["from": "FILE"])
        #expect(own == ["from": "a.sqlite"])
        #expect(configuration.attachmentsStore == "postgres")
        #expect(configuration.databaseURL.map { "\($0)" }?.contains("db.example") == true)
        #expect(configuration.port == ServerConfiguration().port)

        #expect(throws: ToolFailure.self) {
            try ServerConfiguration.resolve(
                tool: "backup", arguments: ["--port", "1"], environment: [:], settings: ["data-dir"],
                required: ["to": "FILE"])
        }
        do {
            _ = try ServerConfiguration.resolve(
                tool: "migrate-to-postgres", arguments: ["--attachments-store", "nope"], environment: [:],
                settings: ["database-url", "attachments-store"], needed: ["database-url": "URL"],
                required: ["from": "FILE"])
            Issue.record("a bad value and missing flags were accepted")
        } catch {
            #expect(error.description.hasPrefix("migrate-to-postgres: "))
            #expect(error.description.contains("--from FILE is required"))
            #expect(error.description.contains("--database-url URL (or DATABASE_URL) is required"))
            #expect(error.description.contains("--attachments-store / CHAT_ATTACHMENTS_STORE"))
        }
    }
}
