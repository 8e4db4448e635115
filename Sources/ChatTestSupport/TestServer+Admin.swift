import ChatPersistence
import ChatServer
import Foundation

extension TestServer {
    /// Runs `chat-server admin ARGUMENTS` on this server's database (its data directory, or its PostgreSQL
    /// database), as an operator would beside the running server; the tool's report.
    public func admin(_ arguments: String...) async throws -> String {
        var environment = ["CHAT_DATA_DIR": self.configuration.dataDirectory]
        if let url = self.configuration.databaseURL {
            let note = URL(fileURLWithPath: self.configuration.dataDirectory).appendingPathComponent(
                "test-database-url")
            environment["DATABASE_URL"] = (try? String(contentsOf: note, encoding: .utf8)) ?? url.description
        }
        return try await AdminTool.run(arguments: arguments, environment: environment)
    }
}
