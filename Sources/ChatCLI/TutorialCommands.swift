import ArgumentParser
import ChatClient
import ChatProtocol
import Foundation

extension ChatCommand {
    /// `chat tcp HOST:PORT --name NAME`: the DogeChat text protocol.
    struct TCP: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tcp", abstract: "Chat in the lobby over the TCP text protocol (iam:/msg:).",
            discussion: "Type a line to send it; /nick NAME renames, /quit leaves.")

        @Argument(help: "HOST:PORT of the TCP listener, e.g. 127.0.0.1:8081.") var address: String
        @Option(name: .long, help: "Your name (1–64 bytes, no ':').") var name: String

        func run() async throws {
            guard let colon = self.address.lastIndex(of: ":"),
                let port = Int(self.address[self.address.index(after: colon)...])
            else {
                throw ValidationError("expected HOST:PORT, got \(self.address)")
            }
            let host = String(self.address[..<colon])
            try await runReportingErrors {
                let client = try await LineChatClient.connect(host: host, port: port, name: self.name)
                let printer = Task {
                    for await event in client.events {
                        switch event {
                        case .joined(let name):
                            Terminal.line(Terminal.dim("→ \(TerminalText.visible(name)) has joined"))
                        case .left(let name): Terminal.line(Terminal.dim("← \(TerminalText.visible(name)) has left"))
                        case .message(let name, let text):
                            Terminal.line(
                                "\(Terminal.dim("[\(Terminal.time(Date()))]")) \(Terminal.colored(name: name)): \(TerminalText.visible(text))"
                            )
                        case .rejected(let reason): Terminal.error(TerminalText.visible(reason))
                        case .other(let line): Terminal.line(TerminalText.visible(line))
                        case .closed: Terminal.line(Terminal.dim("-- connection closed"))
                        }
                    }
                }
                for await line in StandardInput.lines() {
                    if line == "/quit" { break }
                    if line.hasPrefix("/nick ") {
                        try await client.rename(to: String(line.dropFirst(6)))
                    } else if !line.isEmpty {
                        try await client.send(line)
                    }
                }
                await client.close()
                await printer.value
            }
        }
    }

    /// `chat chat-ws URL --name NAME`: the Vapor tutorial's `/chat` JSON protocol. `legacy-ws`, its first name, still
    /// works.
    struct TutorialWebSocket: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "chat-ws", abstract: "Chat in the lobby over the tutorial's /chat WebSocket.",
            discussion: "Type a line to send it; /quit leaves.", aliases: ["legacy-ws"])

        @Argument(help: "The /chat URL, e.g. ws://127.0.0.1:8080/chat.") var url: String
        @Option(name: .long, help: "Your name; without it you are a guest.") var name: String?

        func run() async throws {
            try await runReportingErrors {
                let client = try await LobbyChatClient.connect(to: self.url, user: self.name)
                let printer = Task {
                    for await event in client.events {
                        switch event {
                        case .message(let message):
                            let name =
                                message.user == "SwiftChat"
                                ? Terminal.dim(message.user) : Terminal.colored(name: message.user)
                            Terminal.line(
                                "\(Terminal.dim("[\(Terminal.time(message.date))]")) \(name): \(message.message)")
                        case .rejected(let reason): Terminal.error(reason)
                        case .malformed(let text): Terminal.error("malformed frame: \(text.prefix(200))")
                        case .closed: Terminal.line(Terminal.dim("-- connection closed"))
                        }
                    }
                }
                for await line in StandardInput.lines() {
                    if line == "/quit" { break }
                    if !line.isEmpty { try await client.send(line) }
                }
                await client.close()
                await printer.value
            }
        }
    }
}
