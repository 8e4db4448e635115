import Foundation

/// What `chat` remembers between runs: the server and a session token (never the password).
struct CLIConfig: Codable, Equatable {
    var server: String?
    var username: String?
    var token: String?

    /// `--config`, else `CHAT_CONFIG`, else `$XDG_CONFIG_HOME/swiftchat/config.json`, else
    /// `~/.config/swiftchat/config.json`.
    static func path(override: String?) -> String {
        if let override { return override }
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["CHAT_CONFIG"], !path.isEmpty { return path }
        // $HOME first: NSHomeDirectory() on Linux reads the password database and ignores it.
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (home as NSString).appendingPathComponent(".config")
        return (base as NSString).appendingPathComponent("swiftchat/config.json")
    }

    static func load(from path: String) -> CLIConfig {
        guard let data = FileManager.default.contents(atPath: path),
            let config = try? JSONDecoder().decode(CLIConfig.self, from: data)
        else { return CLIConfig() }
        return config
    }

    /// Writes the file readable and writable by its owner only (0600), in a directory only the owner can enter.
    func save(to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(self)
        // Create it 0600 before any secret is written, then replace the contents (a file that could not be created
        // makes setAttributes throw).
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: data)
    }
}
