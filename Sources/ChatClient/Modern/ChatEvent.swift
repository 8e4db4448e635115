import ChatProtocol
import Foundation

/// An acknowledgement: the message (or edit, delete, reaction) is durable and has this `seq` (PROTOCOL.md §8.3).
public typealias Ack = AckFrame

/// What a ``ChatClient`` tells its listeners, in the order it happened.
///
/// Messages arrive once each per `(room, seq)`: the client drops what a replay after a reconnection repeats.
public enum ChatEvent: Sendable {
    /// The connection changed state (connecting, connected, waiting to reconnect…).
    case state(ConnectionState)
    /// The server's greeting on each (re)connection: who I am and the rooms this connection follows.
    case hello(user: UserProfile, rooms: [String])
    /// An event in a room: a message, or with §9 an edit, delete or reaction (see `kind`), live or replayed.
    /// `clientMsgID` is set on my own sends.
    case message(MessagePayload, clientMsgID: String?)
    /// A room's replay is over; `complete == false` means the gap was too large and history must be paged.
    case resumed(room: String, latestSeq: Int64, complete: Bool)
    /// A member read a room up to `seq` (§8.5).
    case receipt(ReceiptFrame)
    /// A member is typing in a room (§9.4); show it until 5 s pass without another, or their message arrives.
    case typing(room: String, user: SenderPayload)
    /// Who went online or offline (§9.5); `lastSeen` in milliseconds since 1970.
    case presence([PresenceEntry])
    /// I was added to a room while connected (§9.6). The summary stands for what the room already holds (page
    /// it with ``ChatClient/history(room:before:limit:)``); its events after `latestSeq` follow.
    case joined(RoomSummary)
    /// I left a room (on any device); nothing more arrives from it.
    case left(room: String)
    /// Something went wrong that no call is waiting for: a malformed frame, an error frame for no pending send,
    /// a rejected resume. The connection goes on.
    case error(ChatClientError)
}
