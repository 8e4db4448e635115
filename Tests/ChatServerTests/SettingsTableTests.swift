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
}
