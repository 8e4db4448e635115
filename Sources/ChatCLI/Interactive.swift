import ArgumentParser
import ChatClient
import ChatProtocol
import Foundation

extension ChatCommand {
    /// `chat` (or `chat interactive`): rooms, messages as they arrive, slash commands.
    struct Interactive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "interactive", abstract: "The interactive client (the default).")

        @OptionGroup var connection: ConnectionOptions
        @Option(name: .long, help: "The room to open first.") var room = "lobby"

        func run() async throws {
            try await runReportingErrors {
                let client = try await self.connection.signedInClient()
                let session = InteractiveSession(client: client)
                try await session.run(firstRoom: self.room)
            }
        }
    }
}

/// The interactive client's state: the open room, unread counts, who is typing. Events and typed lines both
/// go through this actor, so output never interleaves mid-line.
actor InteractiveSession {
    let client: ChatClient
    var current: RoomSummary?
    var rooms: [String: RoomSummary] = [:]
    var unread: [String: Int64] = [:]
    var typing: [String: (name: String, until: ContinuousClock.Instant)] = [:]
    var me: UUID?

    static let help = """
        Type a line to send it to the open room. Commands:
          /rooms            my rooms with unread counts
          /join ROOM        open a room (joins a public channel)
          /dm NAME          open the direct room with NAME
          /history [N]      the last N messages of the open room (default 20)
          /search TEXT      search my rooms
          /help             this help
          /quit             leave
        """

    init(client: ChatClient) {
        self.client = client
    }

    func run(firstRoom: String) async throws {
        self.me = await self.client.session?.user.id
        let summaries = try await self.client.rooms()
        for room in summaries {
            self.rooms[room.id] = room
            self.unread[room.id] = room.unreadCount
            // Events after what the summary counted are new; anything that arrives before connecting is replayed.
            await self.client.follow(room: room.id, after: room.latestSeq)
            Terminal.line("  " + RoomList.line(for: room))
        }
        if let shown = try await self.open(firstRoom), let room = self.current {
            // (edits and reactions after the last message printed are already in the history as printed)
            await self.client.follow(room: room.id, after: max(shown, room.latestSeq))
        }
        let events = await self.client.connect()
        let listener = Task { for await event in events { self.handle(event) } }
        Terminal.line(Terminal.dim("Type /help for commands."))
        for await line in StandardInput.lines() {
            if line == "/quit" { break }
            await self.handle(line: line)
        }
        listener.cancel()
        await self.client.stop()
    }

    func handle(_ event: ChatEvent) {
        switch event {
        case .state(let state):
            Terminal.line(Terminal.dim("-- \(state)"))
        case .message(let message, _):
            self.typing[message.sender.id.uuidString + message.room] = nil
            if message.room == self.current?.id {
                Terminal.line(Terminal.render(message))
                if message.sender.id != self.me {
                    Task { await self.client.markRead(room: message.room, seq: message.seq) }
                }
            } else if message.eventKind == .message, message.sender.id != self.me {
                self.unread[message.room, default: 0] += 1
                let name = self.rooms[message.room]?.name ?? message.room
                Terminal.line(Terminal.render(message, roomLabel: name))
            }
        case .typing(let room, let user):
            guard room == self.current?.id else { return }
            let key = user.id.uuidString + room
            let isNew = self.typing[key] == nil || self.typing[key]!.until < .now
            self.typing[key] = (user.name, .now + .seconds(5))
            if isNew { Terminal.line(Terminal.dim("… \(TerminalText.visible(user.name)) is typing")) }
        case .joined(let room):
            self.rooms[room.id] = room
            Terminal.line(Terminal.dim("-- you are now in \(TerminalText.visible(room.name))"))
        case .left(let room):
            self.rooms[room] = nil
            Terminal.line(Terminal.dim("-- you left \(room)"))
        case .resumed(let room, _, let complete) where !complete:
            Terminal.line(Terminal.dim("-- \(self.rooms[room]?.name ?? room): too much missed; use /history"))
        case .error(let error):
            Terminal.error(error.description)
        case .hello, .receipt, .presence, .resumed:
            break
        }
    }

    func handle(line: String) async {
        do {
            if line.hasPrefix("/") {
                try await self.command(line)
            } else if !line.trimmingCharacters(in: .whitespaces).isEmpty, let room = self.current {
                // The outbox keeps it while offline; the echo from the server prints it.
                Task { [client] in
                    do { try await client.send(line, to: room.id) } catch { Terminal.error("not sent: \(error)") }
                }
            }
        } catch {
            Terminal.error(String(describing: error))
        }
    }

    func command(_ line: String) async throws {
        let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
        let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        switch parts[0] {
        case "/help": Terminal.line(Self.help)
        case "/rooms":
            for room in try await self.client.rooms() {
                var room = room
                room.unreadCount = room.id == self.current?.id ? 0 : max(room.unreadCount, self.unread[room.id] ?? 0)
                Terminal.line((room.id == self.current?.id ? "* " : "  ") + RoomList.line(for: room))
            }
        case "/join" where !argument.isEmpty: try await self.open(argument)
        case "/dm" where !argument.isEmpty: try await self.open("@" + argument)
        case "/history": try await self.printHistory(limit: Int(argument) ?? 20)
        case "/search" where !argument.isEmpty:
            let hits = try await self.client.search(argument)
            if hits.isEmpty { Terminal.line(Terminal.dim("no match")) }
            for hit in hits {
                let snippet = hit.snippet.map { TerminalText.visible($0.text) }.enumerated()
                    .map { index, text in hit.snippet[index].match == true ? Terminal.bold(text) : text }.joined()
                let room = self.rooms[hit.message.room]?.name ?? hit.message.room
                Terminal.line(
                    "\(Terminal.dim("[\(room) #\(hit.message.seq) \(Terminal.time(milliseconds: hit.message.date))]")) \(Terminal.colored(name: hit.message.sender.name)): \(snippet)"
                )
            }
        default: Terminal.line(Self.help)
        }
    }

    /// Opens a room and prints its latest messages; returns the last seq printed.
    @discardableResult
    func open(_ name: String) async throws -> Int64? {
        let room = try await resolveRoom(name, client: self.client)
        self.rooms[room.id] = room
        self.current = room
        self.unread[room.id] = 0
        Terminal.line(Terminal.bold("== \(room.roomKind == .direct ? "@" : "#")\(TerminalText.visible(room.name))"))
        return try await self.printHistory(limit: 20)
    }

    @discardableResult
    func printHistory(limit: Int) async throws -> Int64? {
        guard let room = self.current else { return nil }
        let page = try await self.client.history(room: room.id, limit: min(max(limit, 1), 200))
        var timeline = Timeline()
        timeline.apply(page: page.messages)
        for message in timeline.messages { Terminal.line(Terminal.render(message)) }
        if let last = page.messages.last { await self.client.markRead(room: room.id, seq: last.seq) }
        return page.messages.last?.seq
    }
}
