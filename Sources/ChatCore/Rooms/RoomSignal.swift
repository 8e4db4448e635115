import Foundation

/// What a room tells its members without storing it: a read receipt or a typing notice. With several nodes, each
/// node's copy of the room has its own members, so a signal one node's room delivers is relayed to the others
/// (``RoomSignalRelay``), which deliver it to theirs: ephemeral, at most once, never stored.
public enum RoomSignal: Sendable, Equatable {
    case receipt(room: RoomID, user: UUID, seq: Int64)
    case typing(room: RoomID, user: Sender)
    /// A tutorial client joined or left the room (`NAME has joined`).
    case announcement(room: RoomID, change: PresenceChange)

    public var room: RoomID {
        switch self {
        case .receipt(let room, _, _), .typing(let room, _), .announcement(let room, _): room
        }
    }
}

/// Carries the signals a room delivered to the other nodes' copies of it.
public protocol RoomSignalRelay: Sendable {
    func publish(_ signal: RoomSignal)
}

/// One node: there is no one to relay to.
public struct NoRelay: RoomSignalRelay {
    public init() {}
    public func publish(_ signal: RoomSignal) {}
}
