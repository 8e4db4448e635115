/// Why one of `chat-server`'s tools (`backup`, `migrate-to-postgres`) did nothing; the message names the setting.
public struct ToolFailure: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
