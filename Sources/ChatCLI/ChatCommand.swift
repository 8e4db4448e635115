import ArgumentParser
import ChatProtocol

/// `chat`: the SwiftChat terminal client. Without a subcommand it opens the interactive client.
@main
struct ChatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat",
        abstract: "The SwiftChat terminal client.",
        discussion: """
            Signs in once and remembers the server and session in a config file readable only by you
            (~/.config/swiftchat/config.json, or --config / CHAT_CONFIG). Flags and CHAT_SERVER, CHAT_USERNAME,
            CHAT_PASSWORD, CHAT_TOKEN override it.

            Exit codes: 0 success, 1 other failure, 64 bad usage, 65 refused by the server (forbidden, too long…),
            69 server unreachable, 75 timed out, 77 wrong credentials or session expired.
            """,
        version: SwiftChatVersion.current,
        subcommands: [
            Interactive.self, Login.self, Logout.self, Send.self, Tail.self, Rooms.self, TCP.self,
            TutorialWebSocket.self,
        ],
        defaultSubcommand: Interactive.self
    )
}
