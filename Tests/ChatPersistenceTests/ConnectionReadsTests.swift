import ChatCore
import ChatProtocol
import FluentKit
import Foundation
import Testing

@testable import ChatPersistence

/// The reads every connection makes, written in SQL rather than through Fluent's models (``ColumnRows``): a token's
/// grant with its account, an account's memberships, a room's members and standings. Each must say what the models
/// say, column for column, on SQLite and PostgreSQL.
@Suite("The reads of a connection, in SQL")
struct ConnectionReadsTests {
    static let databases = MigratedDatabase.names

    @Test(
        "a token's grant carries the account as stored; an expired or unknown token grants nothing",
        arguments: databases)
    func grant(database name: String) async throws {
        let (database, close) = try await MigratedDatabase.open(name)
        let accounts = FluentAccountStore(database: database)
        let owner = UUID()
        let bot = Account(
            id: UUID(), username: "helper", displayName: "Helper 助手", avatarColor: "#123456", passwordHash: "hash",
            isAdministrator: true, isBot: true, botOwner: owner, avatar: UUID())
        #expect(try await accounts.create(bot))
        try await accounts.setLastSeen(bot.id, at: Date(timeIntervalSince1970: 1_700_000_000))
        let expiresAt = Date().addingTimeInterval(3600)
        try await accounts.storeToken(hash: "live", userID: bot.id, expiresAt: expiresAt)
        try await accounts.storeToken(hash: "old", userID: bot.id, expiresAt: Date().addingTimeInterval(-1))

        let grant = try #require(try await accounts.grant(forTokenHash: "live", now: Date()))
        let stored = try #require(try await accounts.account(id: bot.id))
        #expect(grant.account == stored)
        #expect(stored.isBot && stored.isAdministrator && stored.botOwner == owner && stored.avatar == bot.avatar)
        #expect(stored.lastSeenAt != nil && stored.createdAt != nil)
        #expect(abs(grant.expiresAt.timeIntervalSince(expiresAt)) < 0.001)
        #expect(try await accounts.grant(forTokenHash: "old", now: Date()) == nil)
        #expect(try await accounts.grant(forTokenHash: "unknown", now: Date()) == nil)
        await close()
    }

    @Test(
        "memberships carry the room, the read position, the role, a mute, the notification level and what the member keeps",
        arguments: databases)
    func memberships(database name: String) async throws {
        let (database, close) = try await MigratedDatabase.open(name)
        let accounts = FluentAccountStore(database: database)
        let ann = Account(id: UUID(), username: "ann", displayName: "Ann", avatarColor: "#000000", passwordHash: "")
        let bob = Account(id: UUID(), username: "bob", displayName: "Bob", avatarColor: "#000000", passwordHash: "")
        for account in [ann, bob] { #expect(try await accounts.create(account)) }
        let directory = FluentRoomDirectory(database: database)
        var channel = RoomInfo(id: "c1", kind: .channel, name: "Channel", createdBy: ann.id)
        try await directory.create(channel, members: [ann.id, bob.id])
        let direct = try #require(try await directory.room(directory.directRoom(between: ann.id, and: bob.id).id))
        try await directory.restrict(bob.id, in: channel.id, .mute, by: ann.id)
        #expect(try await directory.setNotifications(.mentions, of: bob.id, in: channel.id))
        #expect(try await directory.setPinned(true, of: bob.id, in: channel.id))
        #expect(try await directory.setDraft("半句话", of: bob.id, in: channel.id))
        #expect(try await directory.markRead(bob.id, in: channel.id, upTo: 7) != nil)
        #expect(try await directory.setMarkedUnread(true, of: bob.id, in: channel.id))

        let bobs = Dictionary(
            uniqueKeysWithValues: try await directory.memberships(of: bob.id).map { ($0.room.id, $0) })
        #expect(Set(bobs.keys) == [channel.id, direct.id])
        let inChannel = try #require(bobs[channel.id])
        channel.avatar = nil
        #expect(inChannel.room == channel)
        #expect(inChannel.lastReadSeq == 7)
        #expect(inChannel.standing == MemberStanding(role: .member, muted: true, notifications: .mentions))
        #expect(inChannel.personal == PersonalRoomState(pinned: true, draft: "半句话", markedUnread: true))
        let inDirect = try #require(bobs[direct.id])
        #expect(inDirect.room == direct && inDirect.room.pair?.count == 2)
        #expect(inDirect.standing == MemberStanding() && inDirect.personal == PersonalRoomState())
        let anns = try await directory.memberships(of: ann.id)
        #expect(anns.first { $0.room.id == channel.id }?.standing.role == .owner)

        #expect(Set(try await directory.members(of: channel.id)) == [ann.id, bob.id])
        let standings = try await directory.standings(in: channel.id)
        #expect(standings[bob.id] == inChannel.standing)
        #expect(standings[ann.id] == MemberStanding(role: .owner, muted: false, notifications: nil))
        #expect(try await directory.memberships(of: UUID()).isEmpty)
        await close()
    }
}
