import ChatCore
import ChatProtocol
import Foundation
import NIOCore

/// Handles one modern connection's frames strictly in the order they arrived: frames that need to await (a room to
/// open, history to read) never overtake each other, so a `send` after a `resume` is always handled after it.
actor ModernWorker {
    private let connection: WebSocketConnection
    private let context: ModernContext
    private let account: Account
    /// Rooms the account belonged to when the connection opened: what a first `resume` follows.
    private let rooms: Set<RoomID>
    /// Rooms this connection receives live messages from.
    private var joined: [RoomID: Room] = [:]

    init(connection: WebSocketConnection, context: ModernContext, account: Account, rooms: Set<RoomID>) {
        self.connection = connection
        self.context = context
        self.account = account
        self.rooms = rooms
    }

    func run(_ frames: AsyncStream<ClientFrame>) async {
        for await frame in frames {
            await self.handle(frame)
        }
        for room in self.joined.values {
            room.leave(self.connection)
        }
    }

    private func handle(_ frame: ClientFrame) async {
        switch frame.type {
        case "resume": await self.resume(frame)
        case "send": await self.sendMessage(frame)
        case "history": await self.history(frame)
        case "read": await self.markRead(frame)
        default: self.reply(ErrorFrame(code: "bad_frame", message: "Unknown type \(frame.type ?? "")", ref: frame.ref))
        }
    }

    /// Replays each listed room after the given seq and then follows it live; rooms not listed (on the first
    /// resume) are followed from now on.
    private func resume(_ frame: ClientFrame) async {
        var requested = frame.rooms ?? [:]
        if self.joined.isEmpty {
            for room in self.rooms where requested[room.rawValue] == nil { requested[room.rawValue] = .max }
        }
        for (raw, lastSeq) in requested.sorted(by: { $0.key < $1.key }) {
            let id = RoomID(raw)
            guard self.joined[id] == nil else { continue }
            guard await self.isMember(id) else {
                self.reply(Self.forbidden(raw))
                continue
            }
            do {
                let room = try await self.context.hub.room(id)
                room.resume(self.connection, after: lastSeq, maxReplay: self.context.maxReplay)
                self.joined[id] = room
            } catch {
                self.reply(ErrorFrame(code: "unavailable", message: "The room could not be opened; try again.", ref: raw))
            }
        }
    }

    private func sendMessage(_ frame: ClientFrame) async {
        guard let clientMsgID = frame.clientMsgID, (1...64).contains(clientMsgID.count) else {
            return self.reply(ErrorFrame(code: "bad_frame", message: "send needs a clientMsgID of 1 to 64 characters.", ref: frame.ref))
        }
        guard let raw = frame.room, let text = frame.text else {
            return self.reply(ErrorFrame(code: "bad_frame", message: "send needs room and text.", ref: clientMsgID))
        }
        guard !text.allSatisfy(\.isWhitespace) else {
            return self.reply(ErrorFrame(code: "empty_message", message: "The message is empty.", ref: clientMsgID))
        }
        guard text.utf8.count <= self.context.maxMessageBytes else {
            return self.reply(ErrorFrame(code: "too_long", message: "A message is at most \(self.context.maxMessageBytes) bytes.", ref: clientMsgID))
        }
        let id = RoomID(raw)
        guard await self.isMember(id) else {
            return self.reply(Self.forbidden(clientMsgID))
        }
        if let wait = self.context.sendLimiter.attempt(["user:\(self.account.id.uuidString)"]) {
            let seconds = Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
            return self.reply(ErrorFrame(code: "rate_limited", message: "Too many messages; wait \(String(format: "%.1f", seconds)) s.", ref: clientMsgID))
        }
        let room: Room
        do {
            room = try await self.context.hub.room(id)
        } catch {
            return self.reply(ErrorFrame(code: "unavailable", message: "The room could not be opened; try again.", ref: clientMsgID))
        }
        let connection = self.connection
        let directory = self.context.directory
        let accountID = self.account.id
        let draft = MessageDraft(sender: Sender(name: self.account.username, id: accountID), text: text, clientMsgID: clientMsgID)
        room.submit(draft) { result in
            if case .success(let message) = result {
                // What I wrote, I have read: my own messages never count as unread on any of my devices.
                Task {
                    if (try? await directory.markRead(accountID, in: message.room, upTo: message.seq)) == message.seq {
                        room.receipt(from: accountID, upTo: message.seq)
                    }
                }
            }
            connection.eventLoop.execute {
                switch result {
                case .success(let message):
                    ModernSession.send(
                        AckFrame(clientMsgID: clientMsgID, room: message.room.rawValue, seq: message.seq, id: message.id, date: message.payload.date),
                        on: connection)
                case .failure:
                    ModernSession.send(ErrorFrame(code: "unavailable", message: "The message could not be stored; retry with the same clientMsgID.", ref: clientMsgID), on: connection)
                }
            }
        }
    }

    /// `read {room, seq}`: moves my last-read seq forward and tells every member, my other devices included.
    private func markRead(_ frame: ClientFrame) async {
        guard let raw = frame.room, let seq = frame.seq, seq >= 0 else {
            return self.reply(ErrorFrame(code: "bad_frame", message: "read needs room and seq.", ref: frame.ref))
        }
        let id = RoomID(raw)
        guard await self.isMember(id), let room = try? await self.context.hub.room(id) else {
            return self.reply(Self.forbidden(frame.ref ?? raw))
        }
        let latest = await room.latestSeq
        guard seq <= latest else {
            return self.reply(ErrorFrame(code: "bad_seq", message: "The room ends at seq \(latest).", ref: frame.ref ?? raw))
        }
        do {
            guard let stored = try await self.context.directory.markRead(self.account.id, in: id, upTo: seq) else {
                return self.reply(Self.forbidden(frame.ref ?? raw))
            }
            guard stored == seq else {
                return self.reply(ErrorFrame(code: "stale_read", message: "Already read up to seq \(stored); read only moves forward.", ref: frame.ref ?? raw))
            }
            room.receipt(from: self.account.id, upTo: seq)
        } catch {
            self.reply(ErrorFrame(code: "unavailable", message: "The read position could not be saved; try again.", ref: frame.ref ?? raw))
        }
    }

    private func history(_ frame: ClientFrame) async {
        guard let raw = frame.room else {
            return self.reply(ErrorFrame(code: "bad_frame", message: "history needs a room.", ref: frame.ref))
        }
        let limit = frame.limit ?? 50
        guard (1...200).contains(limit) else {
            return self.reply(ErrorFrame(code: "bad_frame", message: "limit is 1 to 200.", ref: frame.ref))
        }
        guard await self.isMember(RoomID(raw)) else {
            return self.reply(Self.forbidden(frame.ref))
        }
        do {
            let page = try await self.context.messages.page(in: RoomID(raw), before: frame.before, limit: limit + 1)
            self.reply(HistoryFrame(room: raw, messages: page.suffix(limit).map(\.payload), hasMore: page.count > limit, ref: frame.ref))
        } catch {
            self.reply(ErrorFrame(code: "unavailable", message: "History could not be read; try again.", ref: frame.ref))
        }
    }

    /// Whether the account belongs to the room now: asked of the directory every time, so leaving a room (on any
    /// device) takes effect on connections that are already open.
    private func isMember(_ room: RoomID) async -> Bool {
        (try? await self.context.directory.isMember(self.account.id, of: room)) == true
    }

    /// The `forbidden` error, worded as the HTTP API words it: the same for a room that does not exist.
    private static func forbidden(_ ref: String?) -> ErrorFrame {
        ErrorFrame(code: RoomsController.forbidden.code, message: RoomsController.forbidden.message, ref: ref)
    }

    private func reply(_ value: some Encodable & Sendable) {
        let connection = self.connection
        connection.eventLoop.execute { ModernSession.send(value, on: connection) }
    }
}
