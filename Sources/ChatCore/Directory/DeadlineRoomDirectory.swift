import Foundation

/// A room directory whose every call answers within `limit`, as ``DeadlineMessageStore`` is for messages: one that
/// does not fails with ``DeadlineExceeded``, so a connection never waits for ever behind a query whose database
/// connection died under it (its caller answers `unavailable`, and the client retries).
public struct DeadlineRoomDirectory: RoomDirectory {
    let base: any RoomDirectory
    let limit: Duration

    public init(_ base: any RoomDirectory, limit: Duration) {
        self.base = base
        self.limit = limit
    }

    private func call<Value: Sendable>(
        _ work: @escaping @Sendable (any RoomDirectory) async throws -> Value
    ) async throws -> Value {
        try await Deadline.run(within: self.limit) { [base] in try await work(base) }
    }

    public func ensureLobby() async throws {
        try await self.call { try await $0.ensureLobby() }
    }

    public func create(_ room: RoomInfo, members: [UUID]) async throws {
        try await self.call { try await $0.create(room, members: members) }
    }

    public func directRoom(between first: UUID, and second: UUID) async throws -> RoomInfo {
        try await self.call { try await $0.directRoom(between: first, and: second) }
    }

    public func room(_ id: RoomID) async throws -> RoomInfo? {
        try await self.call { try await $0.room(id) }
    }

    public func memberships(of user: UUID) async throws -> [Membership] {
        try await self.call { try await $0.memberships(of: user) }
    }

    public func channels() async throws -> [(room: RoomInfo, members: Int)] {
        try await self.call { try await $0.channels() }
    }

    public func existingDirectRoom(between first: UUID, and second: UUID) async throws -> RoomInfo? {
        try await self.call { try await $0.existingDirectRoom(between: first, and: second) }
    }

    public func allRooms(after: RoomID?, limit: Int) async throws -> [RoomListing] {
        try await self.call { try await $0.allRooms(after: after, limit: limit) }
    }

    public func isMember(_ user: UUID, of room: RoomID) async throws -> Bool {
        try await self.call { try await $0.isMember(user, of: room) }
    }

    public func standing(of user: UUID, in room: RoomID) async throws -> MemberStanding? {
        try await self.call { try await $0.standing(of: user, in: room) }
    }

    public func standings(in room: RoomID) async throws -> [UUID: MemberStanding] {
        try await self.call { try await $0.standings(in: room) }
    }

    public func isRestricted(_ user: UUID, in room: RoomID, _ restriction: RoomRestriction) async throws -> Bool {
        try await self.call { try await $0.isRestricted(user, in: room, restriction) }
    }

    public func restrict(_ user: UUID, in room: RoomID, _ restriction: RoomRestriction, by actor: UUID?) async throws {
        try await self.call { try await $0.restrict(user, in: room, restriction, by: actor) }
    }

    public func setNotifications(_ level: NotificationLevel?, of user: UUID, in room: RoomID) async throws -> Bool {
        try await self.call { try await $0.setNotifications(level, of: user, in: room) }
    }

    public func personalState(of user: UUID, in room: RoomID) async throws -> PersonalRoomState? {
        try await self.call { try await $0.personalState(of: user, in: room) }
    }

    public func setPinned(_ pinned: Bool, of user: UUID, in room: RoomID) async throws -> Bool {
        try await self.call { try await $0.setPinned(pinned, of: user, in: room) }
    }

    public func setDraft(_ draft: String?, of user: UUID, in room: RoomID) async throws -> Bool {
        try await self.call { try await $0.setDraft(draft, of: user, in: room) }
    }

    public func setMarkedUnread(_ marked: Bool, of user: UUID, in room: RoomID) async throws -> Bool {
        try await self.call { try await $0.setMarkedUnread(marked, of: user, in: room) }
    }

    public func lift(_ restriction: RoomRestriction, of user: UUID, in room: RoomID) async throws -> Bool {
        try await self.call { try await $0.lift(restriction, of: user, in: room) }
    }

    public func restricted(in room: RoomID, _ restriction: RoomRestriction) async throws -> [UUID] {
        try await self.call { try await $0.restricted(in: room, restriction) }
    }

    public func deleteRoom(_ id: RoomID) async throws {
        try await self.call { try await $0.deleteRoom(id) }
    }

    public func members(of room: RoomID) async throws -> [UUID] {
        try await self.call { try await $0.members(of: room) }
    }

    public func members(ofRoomsOf users: Set<UUID>, ofAtMost limit: Int) async throws -> [RoomID: [UUID]] {
        try await self.call { try await $0.members(ofRoomsOf: users, ofAtMost: limit) }
    }

    public func add(_ user: UUID, to room: RoomID) async throws {
        try await self.call { try await $0.add(user, to: room) }
    }

    public func remove(_ user: UUID, from room: RoomID) async throws {
        try await self.call { try await $0.remove(user, from: room) }
    }

    public func lastReadSeq(of user: UUID, in room: RoomID) async throws -> Int64? {
        try await self.call { try await $0.lastReadSeq(of: user, in: room) }
    }

    public func readPositions(in room: RoomID) async throws -> [(user: UUID, seq: Int64)] {
        try await self.call { try await $0.readPositions(in: room) }
    }

    public func markRead(_ user: UUID, in room: RoomID, upTo seq: Int64) async throws -> Int64? {
        try await self.call { try await $0.markRead(user, in: room, upTo: seq) }
    }
}
