import ChatCore
import ChatProtocol
import ChatUseCases
import Foundation
import Logging
import NIOCore

/// Handles one modern connection's frames strictly in the order they arrived: frames that need to await (a room to
/// open, history to read) never overtake each other, so a `send` after a `resume` is always handled after it.
actor ModernWorker {
    let connection: WebSocketConnection
    let context: ModernContext
    let account: Account
    /// The hash of the token this connection was opened with: revoking it closes the connection.
    nonisolated let tokenHash: String
    /// Rooms the account belonged to when the connection opened, or joined before its first `resume`: what a
    /// first `resume` follows.
    private var rooms: Set<RoomID>
    /// Rooms this connection receives live events from.
    private var joined: [RoomID: Room] = [:]
    /// Whether the client has sent its first `resume` (nothing live arrives before).
    private var resumed = false
    /// Rooms I was added to before the first `resume`: that `resume` follows them from their first message.
    private var joinedBeforeResume: Set<RoomID> = []

    init(connection: WebSocketConnection, context: ModernContext, signedIn: AuthenticatedAccount, rooms: Set<RoomID>) {
        self.connection = connection
        self.context = context
        self.account = signedIn.account
        self.tokenHash = signedIn.tokenHash
        self.rooms = rooms
    }

    /// Does what waits in the connection's inbox, in order, until it is empty (the inbox then lets this task end).
    /// Frames still waiting when the socket has closed (or the server is shutting down) are dropped: nothing was
    /// acknowledged for them, and their client resends. A `read` is handled all the same, unless the server is
    /// shutting down: it is often a page's last word before it closes (read, then reload), it needs no answer, and
    /// moving a read position twice is harmless.
    func work(through inbox: WorkerInbox) async {
        while let item = inbox.next() {
            switch item {
            case .opened:
                self.context.presence.connected(self.account.id)
                await self.sendPresenceSnapshot()
            case .frame(let frame):
                guard !Task.isCancelled else { continue }
                if case .read(let request) = frame {
                    await self.markRead(request)
                    continue
                }
                guard self.connection.channel.isActive else { continue }
                await self.handle(frame)
            case .closed:
                for room in self.joined.values {
                    room.leave(self.connection)
                }
                self.context.presence.disconnected(self.account.id)
            }
        }
    }

    private func handle(_ frame: ClientMessage) async {
        switch frame {
        case .resume(let request): await self.resume(request)
        case .send(let request): await self.sendMessage(request)
        case .edit(let request): await self.edit(request)
        case .delete(let request): await self.delete(request)
        case .react(let request): await self.react(request)
        case .history(let request): await self.history(request)
        case .read(let request): await self.markRead(request)
        case .typing(let request): await self.typing(request)
        case .ping: break  // answered by the session at once
        }
    }

    /// Replays each listed room after the given seq and then follows it live; rooms not listed (on the first
    /// resume) are followed from now on.
    private func resume(_ frame: ResumeRequest) async {
        var requested = frame.rooms ?? [:]
        // Each room costs a lookup: a resume may name at most as many rooms as the account belongs to.
        if requested.count > Self.resumeRoomsWithoutLookup {
            let memberships: Int
            do {
                memberships = try await self.context.membership.rooms(of: self.account.id).count
            } catch {
                return self.reply(
                    ErrorFrame(code: .unavailable, message: "Your rooms could not be read; try again.", ref: frame.ref))
            }
            guard requested.count <= memberships else {
                return self.reply(
                    ErrorFrame(
                        code: .badFrame,
                        message: "resume names \(requested.count) rooms; you belong to \(memberships).", ref: frame.ref)
                )
            }
        }
        if !self.resumed {
            self.resumed = true
            for room in self.rooms where requested[room.rawValue] == nil {
                requested[room.rawValue] = self.joinedBeforeResume.contains(room) ? 0 : .max
            }
        }
        for (raw, lastSeq) in requested.sorted(by: { $0.key < $1.key }) {
            await self.follow(RoomID(raw), after: lastSeq, ref: raw)
        }
    }

    /// Up to this many rooms, a resume is not checked against the number of rooms the account belongs to.
    static let resumeRoomsWithoutLookup = 16

    /// Starts following a room after `lastSeq`, unless this connection already does.
    private func follow(_ id: RoomID, after lastSeq: Int64, ref: String) async {
        guard self.joined[id] == nil else { return }
        guard await self.mayUse(id, ref: ref), let room = await self.openRoom(id, ref: ref) else { return }
        room.resume(self.connection, after: lastSeq, maxReplay: self.context.maxReplay)
        self.joined[id] = room
    }

    /// The room, when this connection receives its live events.
    func followedRoom(_ id: RoomID) -> Room? { self.joined[id] }

    /// The room's live state, or `nil` after answering `unavailable` (logged) when it could not be loaded.
    func openRoom(_ id: RoomID, ref: String?) async -> Room? {
        do {
            return try await self.context.hub.room(id)
        } catch {
            self.unavailable("room could not be opened", room: id, error: error, ref: ref)
            return nil
        }
    }

    /// I was added to a room (PROTOCOL.md §9.6): say so, then follow it from its first message. Before the first
    /// `resume`, the room is only remembered, and that `resume` follows it. When the room cannot be read, the
    /// connection is told `unavailable` with the room's id as `ref` (logged): `GET /rooms` or the next `resume`
    /// brings it.
    func follow(_ id: RoomID) async {
        guard self.joined[id] == nil, !(self.rooms.contains(id) && !self.resumed) else { return }
        let summary: RoomSummary
        do {
            guard let found = try await self.context.summaries.summary(of: id, for: self.account.id) else { return }
            summary = found
        } catch {
            return self.unavailable("the joined room could not be read", room: id, error: error, ref: id.rawValue)
        }
        self.reply(JoinedFrame(room: summary))
        if self.resumed {
            await self.follow(id, after: 0, ref: id.rawValue)
        } else {
            self.rooms.insert(id)
            self.joinedBeforeResume.insert(id)
        }
    }

    /// I left a room: stop following it and say so.
    func unfollow(_ id: RoomID) {
        self.rooms.remove(id)
        if let room = self.joined.removeValue(forKey: id) {
            room.leave(self.connection)
        }
        self.reply(LeftFrame(room: id.rawValue))
    }

    /// After `hello`: everyone I share a room with who is online now (sent by the node's ``PresenceBroadcaster``, which
    /// then tells me every change).
    private func sendPresenceSnapshot() async {
        let presence = self.context.presence
        await self.context.presenceBroadcaster.sendSnapshot(
            PresenceBroadcaster.SnapshotRequest(worker: self, account: self.account.id) { users in
                await presence.online(among: users)
            })
    }

    private func history(_ frame: HistoryRequest) async {
        let room = RoomID(frame.room)
        do {
            let page = try await self.context.history.page(
                of: room, for: self.account.id, before: frame.before, limit: frame.limit)
            self.reply(HistoryFrame(room: frame.room, messages: page.messages, hasMore: page.hasMore, ref: frame.ref))
        } catch {
            switch error {
            case .badLimit:
                self.reply(
                    ErrorFrame(
                        code: .badFrame,
                        message: "limit is \(History.limits.lowerBound) to \(History.limits.upperBound).",
                        ref: frame.ref))
            case .denied(let denied): self.refused(denied, room: room, ref: frame.ref)
            case .unavailable(let failure):
                self.unavailable("history could not be read", room: room, error: failure, ref: frame.ref)
            }
        }
    }

    /// Whether the account may use the room now (``RoomAccess``); when not, answers `forbidden`, or `unavailable`
    /// (logged) when the database could not say.
    func mayUse(_ room: RoomID, ref: String?) async -> Bool {
        do {
            try await self.context.access.requireMember(self.account.id, of: room)
            return true
        } catch {
            self.refused(error, room: room, ref: ref)
            return false
        }
    }

    /// Whether the account may send in the room now: a member, not muted; when not, answers as ``mayUse(_:ref:)``
    /// does, or `forbidden` with the reason `muted`.
    func maySend(_ room: RoomID, ref: String?) async -> Bool {
        do {
            try await self.context.access.requireSender(self.account.id, in: room)
            return true
        } catch {
            self.refused(error, room: room, ref: ref)
            return false
        }
    }

    /// Answers a refused membership: `forbidden`, or `unavailable` (logged) when it could not be checked.
    func refused(_ denied: RoomAccessDenied, room: RoomID, ref: String?) {
        switch denied {
        case .forbidden: self.reply(Self.forbidden(ref))
        case .muted: self.reply(Self.muted(ref))
        case .unavailable(let failure):
            self.unavailable("membership could not be checked", room: room, error: failure, ref: ref)
        }
    }

    /// Logs a database failure once, here where it is handled, and answers `unavailable`: the client may retry.
    func unavailable(_ what: String, room: RoomID, error: any Error, ref: String?) {
        self.connection.log.logger.error(
            "\(what)", metadata: ["room": "\(room.rawValue)", "error": "\(String(reflecting: error))"])
        self.reply(
            ErrorFrame(code: .unavailable, message: "The server could not read its database; try again.", ref: ref))
    }

    /// The `forbidden` error of a muted member's send, with the reason `muted`.
    static func muted(_ ref: String?) -> ErrorFrame {
        ErrorFrame(code: .forbidden, message: RoomAccessDenied.mutedMessage, ref: ref, reason: "muted")
    }

    /// The `forbidden` error, worded as the HTTP API words it: the same for a room that does not exist.
    static func forbidden(_ ref: String?) -> ErrorFrame {
        ErrorFrame(code: .forbidden, message: RoomAccessDenied.forbiddenMessage, ref: ref)
    }

    func reply(_ value: some Encodable & Sendable) {
        let connection = self.connection
        connection.eventLoop.execute { ModernSession.send(value, on: connection) }
    }
}
