import ChatCore
import ChatProtocol
import FluentKit
import Foundation
import SQLKit
import Testing

@testable import ChatPersistence

/// ``FluentRoomDirectory/members(ofRoomsOf:ofAtMost:)``, which presence asks for every batch of arrivals and departures, read
/// on SQLite on SQLite's thread (`SQLiteRows`) and on PostgreSQL through SQLKit.
@Suite("Room directory: the members of the rooms of some users")
struct RoomMembersTests {
    /// A database opened by name, with what closes it.
    static let databases = MigratedDatabase.names

    @Test(
        "each room of the users within the size limit, with every member of it; no users, no rooms",
        arguments: databases)
    func roommates(database name: String) async throws {
        let (database, close) = try await MigratedDatabase.open(name)
        let accounts = FluentAccountStore(database: database)
        var ids: [String: UUID] = [:]
        for name in ["ann", "bob", "cy"] {
            let id = UUID()
            _ = try await accounts.create(
                Account(id: id, username: name, displayName: name, avatarColor: "#000000", passwordHash: ""))
            ids[name] = id
        }
        let directory = FluentRoomDirectory(database: database)
        let rooms: [(RoomID, [String])] = [("r1", ["ann", "bob"]), ("r2", ["bob", "cy"]), ("r3", ["cy"])]
        for (room, members) in rooms {
            try await directory.create(
                RoomInfo(id: room, kind: .group, name: room.rawValue, createdBy: ids["ann"]!),
                members: members.map { ids[$0]! })
        }
        func members(of names: [String], ofAtMost limit: Int = 3) async throws -> [RoomID: Set<UUID>] {
            try await directory.members(ofRoomsOf: Set(names.map { ids[$0]! }), ofAtMost: limit).mapValues(Set.init)
        }
        #expect(try await members(of: ["ann"]) == ["r1": [ids["ann"]!, ids["bob"]!]])
        #expect(
            try await members(of: ["bob"]) == ["r1": [ids["ann"]!, ids["bob"]!], "r2": [ids["bob"]!, ids["cy"]!]])
        #expect(try await members(of: ["ann", "cy"]).keys.sorted { $0.rawValue < $1.rawValue } == ["r1", "r2", "r3"])
        #expect(try await members(of: []).isEmpty)
        // Rooms over the limit are left out, each room judged by its own size.
        #expect(try await members(of: ["bob", "cy"], ofAtMost: 1) == ["r3": [ids["cy"]!]])
        #expect(try await members(of: ["bob"], ofAtMost: 1).isEmpty)
        #expect(try await members(of: ["bob"], ofAtMost: 0).isEmpty)
        await close()
    }

    @Test("Fluent's SQLite database is read through SQLiteRows, a connection's own query")
    func sqliteReads() async throws {
        let file = try await MigratedSQLiteFile.open()
        let sql = try #require(file.database as? any SQLDatabase)
        #expect(SQLiteRows(sql) != nil)
        await file.close()
    }
}
