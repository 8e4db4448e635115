import ChatPersistence
import ChatServer
import Foundation

extension TestServer {
    /// Runs `chat-server admin ARGUMENTS` on this server's database (its data directory, or its PostgreSQL
    /// database), as an operator would beside the running server; the tool's report.
    public func admin(_ arguments: String...) async throws -> String {
        var environment = ["CHAT_DATA_DIR": self.configuration.dataDirectory]
        if let url = self.configuration.databaseURL {
            // `description` hides a password; the note beside the data, written when the test's database was made,
            // has it. Not when a test put this server on another database (two nodes on one), as the note names
            // the one made before the test chose.
            let note = URL(fileURLWithPath: self.configuration.dataDirectory).appendingPathComponent(
                "test-database-url")
            let noted = try? String(contentsOf: note, encoding: .utf8)
            let notedDatabase = noted.flatMap { try? DatabaseURL($0) }?.database
            environment["DATABASE_URL"] = notedDatabase == url.database ? noted : url.description
        }
        return try await AdminTool.run(arguments: arguments, environment: environment)
    }
}
