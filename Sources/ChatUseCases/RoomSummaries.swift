import ChatCore
import ChatProtocol
import Foundation

/// Builds a room's summary as one member sees it (PROTOCOL.md §7): for `GET /rooms` and the `joined` frame.
public struct RoomSummaries: Sendable {
    public let directory: any RoomDirectory
    public let accounts: any AccountStore
    public let messages: any MessageStore
    /// Whom I blocked: a direct room with them says so.
    public let blocks: any BlockStore

    public init(
        directory: any RoomDirectory, accounts: any AccountStore, messages: any MessageStore, blocks: any BlockStore
    ) {
        self.directory = directory
        self.accounts = accounts
        self.messages = messages
        self.blocks = blocks
    }

    /// My rooms, most recent activity first (`GET /rooms`).
    public func myRooms(for me: UUID) async throws -> [RoomSummary] {
        try await StoreUnavailable.guarding("the rooms could not be read") {
            var summaries: [RoomSummary] = []
            for membership in try await self.directory.memberships(of: me) {
                summaries.append(
                    try await self.summary(
                        of: membership.room, for: me, lastReadSeq: membership.lastReadSeq,
                        standing: membership.standing, personal: membership.personal))
            }
            return summaries.sorted { ($0.lastMessage?.date ?? 0, $0.id) > ($1.lastMessage?.date ?? 0, $1.id) }
        }
    }

    /// Every channel, with member counts and whether I am in it, by name.
    public func publicChannels(for me: UUID) async throws -> [ChannelSummary] {
        try await StoreUnavailable.guarding("the channels could not be read") {
            let mine = Set(try await self.directory.memberships(of: me).map(\.room.id))
            return try await self.directory.channels()
                .map {
                    ChannelSummary(
                        id: $0.room.id.rawValue, name: $0.room.name ?? "", members: $0.members,
                        joined: mine.contains($0.room.id))
                }
                .sorted { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) }
        }
    }

    /// The summary of a room I belong to, from where I have read.
    public func summary(of room: RoomInfo, for me: UUID) async throws -> RoomSummary {
        try await StoreUnavailable.guarding("the room could not be read") {
            let lastRead = try await self.directory.lastReadSeq(of: me, in: room.id) ?? 0
            return try await self.summary(of: room, for: me, lastReadSeq: lastRead)
        }
    }

    /// The summary from `lastReadSeq`; my `standing`, pin and draft are read when not given.
    public func summary(
        of room: RoomInfo, for me: UUID, lastReadSeq: Int64, standing: MemberStanding? = nil,
        personal: PersonalRoomState? = nil
    ) async throws -> RoomSummary {
        try await StoreUnavailable.guarding("the room could not be read") {
            var standing = standing
            if standing == nil {
                standing = try await self.directory.standing(of: me, in: room.id)
            }
            var personal = personal
            if personal == nil {
                personal = try await self.directory.personalState(of: me, in: room.id)
            }
            var peer: UserProfile?
            var peerLastReadSeq: Int64?
            var blocked: Bool?
            // The other of the pair, whether a member or not (a blocked peer has left the room).
            let members = room.kind == .direct ? try await self.directory.members(of: room.id) : []
            if room.kind == .direct,
                let other = room.pair?.first(where: { $0 != me }) ?? members.first(where: { $0 != me })
            {
                peer = try await self.accounts.account(id: other)?.profile
                peerLastReadSeq = try await self.directory.lastReadSeq(of: other, in: room.id)
                if try await self.blocks.isBlocked(other, by: me) { blocked = true }
            }
            // The room as of one seq: messages committed between these reads must not count as unread in a summary
            // whose latestSeq precedes them (a client resuming from latestSeq would count them again).
            let latestSeq = try await self.messages.lastSequence(in: room.id)
            let last = try await self.messages.lastMessage(in: room.id, upTo: latestSeq)
            return RoomSummary(
                id: room.id.rawValue, kind: .known(room.kind), name: room.name ?? peer?.displayName ?? "", peer: peer,
                lastMessage: last?.payload, latestSeq: latestSeq, lastReadSeq: lastReadSeq,
                unreadCount: try await self.messages.unreadCount(
                    in: room.id, after: lastReadSeq, upTo: latestSeq, for: me),
                peerLastReadSeq: peerLastReadSeq, role: room.kind == .direct ? nil : standing?.role,
                muted: standing?.muted == true ? true : nil,
                mentionCount: try await self.messages.unreadMentions(
                    in: room.id, after: lastReadSeq, upTo: latestSeq, for: me),
                notifications: standing?.notifications ?? .default(for: room.kind), blocked: blocked,
                pinned: personal?.pinned == true ? true : nil, draft: personal?.draft,
                markedUnread: personal?.markedUnread == true ? true : nil,
                avatarURL: room.avatar.map(AvatarAddress.path(of:)))
        }
    }

    /// The summary of a room `me` belongs to, with my read position; `nil` when I am not a member.
    public func summary(of id: RoomID, for me: UUID) async throws -> RoomSummary? {
        try await StoreUnavailable.guarding("the room could not be read") {
            guard let membership = try await self.directory.memberships(of: me).first(where: { $0.room.id == id })
            else { return nil }
            return try await self.summary(
                of: membership.room, for: me, lastReadSeq: membership.lastReadSeq, standing: membership.standing,
                personal: membership.personal)
        }
    }
}

extension StoredMessage {
    /// The modern protocol's view of a committed event.
    public var payload: MessagePayload {
        MessagePayload(
            room: self.room.rawValue, seq: self.seq, id: self.id, sender: self.sender.payload, kind: .known(self.kind),
            text: self.text, date: self.date.milliseconds, target: self.target, emoji: self.emoji, added: self.added,
            replyTo: self.replyTo.map { QuotePayload(seq: $0.seq, sender: $0.sender.payload, text: $0.text) },
            attachments: self.attachments.isEmpty ? nil : self.attachments.map(\.payload),
            editedAt: self.editedAt?.milliseconds, deleted: self.deleted ? true : nil,
            reactions: self.reactions.isEmpty
                ? nil : self.reactions.map { ReactionPayload(emoji: $0.emoji, users: $0.users) },
            member: self.member?.payload, mentions: self.mentions.accounts.isEmpty ? nil : self.mentions.accounts,
            mentionsAll: self.mentions.all ? true : nil, preview: self.preview,
            forwardedFrom: self.forwardedFrom?.payload, pinned: self.pinned ? true : nil)
    }
}

extension Sender {
    /// A tutorial sender shows under an id of its own namespace, never an account's (PROTOCOL.md §9.1); a webhook
    /// under its own id.
    public var payload: SenderPayload {
        guard let via = self.via else { return SenderPayload(id: self.id, name: self.name) }
        guard via != .webhook else { return SenderPayload(id: self.id, name: self.name, via: via.rawValue) }
        return SenderPayload(
            id: TutorialIdentity.modernID(forTutorialSender: self.id), name: self.name, via: via.rawValue)
    }
}

extension Attachment {
    public var payload: AttachmentPayload {
        AttachmentPayload(
            id: self.id, name: self.name, contentType: self.contentType, size: self.size, width: self.width,
            height: self.height, durationMs: self.durationMs)
    }
}

extension Date {
    /// Milliseconds since 1970, as every modern date is sent.
    public var milliseconds: Int64 { Int64((self.timeIntervalSince1970 * 1000).rounded()) }
}
