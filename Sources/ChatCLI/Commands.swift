import ArgumentParser
import ChatClient
import ChatProtocol
import Foundation

extension ChatCommand {
    /// `chat login`: signs in and saves the session.
    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sign in (or --register) and remember the session.")

        @OptionGroup var connection: ConnectionOptions
        @Flag(help: "Create the account first.") var register = false

        func run() async throws {
            try await runReportingErrors {
                let saved = CLIConfig.load(from: self.connection.configPath)
                let address = try self.connection.address(saved)
                let environment = ProcessInfo.processInfo.environment
                guard let username = self.connection.username ?? environment["CHAT_USERNAME"] ?? saved.username else {
                    throw ValidationError("--username is required")
                }
                guard
                    let password = self.connection.password ?? environment["CHAT_PASSWORD"]
                        ?? Terminal.readPassword(prompt: "Password for \(username): ")
                else { throw CLIError("no password given", code: ExitCodes.authentication) }
                let api = ChatAPI(server: address)
                let session =
                    self.register
                    ? try await api.register(username: username, password: password)
                    : try await api.login(username: username, password: password)
                if !self.connection.noSave {
                    try CLIConfig(server: address.httpBase, username: session.user.username, token: session.token)
                        .save(to: self.connection.configPath)
                }
                Terminal.line("signed in as \(session.user.username) on \(address)")
            }
        }
    }

    /// `chat logout`: revokes the saved session.
    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke the saved session and forget it.")

        @OptionGroup var connection: ConnectionOptions

        func run() async throws {
            try await runReportingErrors {
                var saved = CLIConfig.load(from: self.connection.configPath)
                if let token = saved.token {
                    try? await ChatAPI(server: try self.connection.address(saved)).logout(token: token)
                }
                saved.token = nil
                try saved.save(to: self.connection.configPath)
                Terminal.line("signed out")
            }
        }
    }

    /// `chat send --room lobby "text"`: sends one message and exits once it is stored.
    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send one message; exits 0 once the server has stored it.")

        @OptionGroup var connection: ConnectionOptions
        @Option(name: .long, help: "Room id, name, or @user for a direct message.") var room = "lobby"
        @Option(name: .long, help: "Seconds to wait for the acknowledgement.") var timeout = 15
        @Flag(name: .long, help: "Print the acknowledgement as JSON.") var json = false
        @Argument(help: "The text; all of standard input (one message, lines kept) when omitted.") var text: [String] =
            []

        func run() async throws {
            try await runReportingErrors {
                let text = self.text.isEmpty ? Self.standardInput() : self.text.joined(separator: " ")
                let client = try await self.connection.signedInClient()
                defer { Task { await client.stop() } }
                let room = try await resolveRoom(self.room, client: client)
                _ = await client.connect()
                let ack = try await withTimeout(.seconds(self.timeout)) { try await client.send(text, to: room.id) }
                await client.stop()
                Terminal.line(self.json ? Terminal.json(ack) : "sent #\(ack.seq) to \(TerminalText.visible(room.name))")
            }
        }

        /// What was piped in, without the final newline that `echo` and files end with.
        static func standardInput() -> String {
            var text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            if text.hasSuffix("\n") { text.removeLast() }
            return text
        }
    }

    /// `chat tail --room lobby [--json]`: prints a room's messages as they arrive.
    struct Tail: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a room's messages as they arrive (one JSON object per line with --json).")

        @OptionGroup var connection: ConnectionOptions
        @Option(name: .long, help: "Room id, name, or @user.") var room = "lobby"
        @Option(name: .long, help: "How many earlier messages to print first.") var history = 10
        @Option(name: .long, help: "Exit after this many new events (0: print the history and exit).") var count: Int?
        @Flag(name: .long, help: "One JSON object per line (the §9.1 event).") var json = false

        func run() async throws {
            try await runReportingErrors {
                let client = try await self.connection.signedInClient()
                let room = try await resolveRoom(self.room, client: client)
                var lastSeq = room.latestSeq
                if self.history > 0 {
                    let page = try await client.history(room: room.id, limit: min(self.history, 200))
                    for message in page.messages { self.print(message) }
                    lastSeq = page.messages.last?.seq ?? lastSeq
                }
                if self.count == 0 { return }
                await client.follow(room: room.id, after: lastSeq)
                var remaining = self.count
                for await event in await client.connect() {
                    switch event {
                    case .message(let message, _) where message.room == room.id:
                        self.print(message)
                        if let left = remaining {
                            remaining = left - 1
                            if left <= 1 { await client.stop() }
                        }
                    case .state(.failed(let error)):
                        throw error
                    case .state(let state) where !self.json:
                        FileHandle.standardError.write(Data("-- \(state)\n".utf8))
                    default:
                        break
                    }
                }
            }
        }

        func print(_ message: MessagePayload) {
            Terminal.line(self.json ? Terminal.json(message) : Terminal.render(message))
        }
    }

    /// `chat rooms`: my rooms with unread counts.
    struct Rooms: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List my rooms with unread counts.")

        @OptionGroup var connection: ConnectionOptions
        @Flag(name: .long, help: "One JSON object per line.") var json = false

        func run() async throws {
            try await runReportingErrors {
                let client = try await self.connection.signedInClient()
                for room in try await client.rooms() {
                    Terminal.line(self.json ? Terminal.json(room) : RoomList.line(for: room))
                }
            }
        }
    }
}

/// How a room is listed.
enum RoomList {
    static func line(for room: RoomSummary) -> String {
        let badge = room.unreadCount > 0 ? Terminal.paint(" (\(room.unreadCount))", 1) : ""
        let kind = room.roomKind == .direct ? "@" : "#"
        let last =
            room.lastMessage.map {
                Terminal.dim(
                    " — \(TerminalText.visible($0.sender.name)): \(TerminalText.visible(String($0.text.prefix(40))))")
            } ?? ""
        return "\(kind)\(TerminalText.visible(room.name))\(badge)\(Terminal.dim("  [\(room.id)]"))\(last)"
    }
}
