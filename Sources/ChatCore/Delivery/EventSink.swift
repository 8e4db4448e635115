import Foundation
import NIOCore

/// Turns room events into the bytes of one wire format.
///
/// A room renders each event once per renderer and writes the same buffer to every connection that uses it,
/// so a renderer must be a shared instance (one per wire format), not one per connection.
public protocol EventRenderer: AnyObject, Sendable {
    /// The payload for an event, or `nil` when this format does not show it.
    func render(_ event: RoomEvent) -> ByteBuffer?
}

/// A connection as a room sees it: where to write rendered events.
///
/// ``write(_:)`` and ``flush()`` are always called on ``eventLoop``. A sink must never block: when its client
/// does not keep up it disconnects that client (its outbound queue is bounded) rather than buffer without end.
public protocol EventSink: AnyObject, Sendable {
    /// The event loop that owns the connection.
    var eventLoop: any EventLoop { get }
    /// The wire format the connection speaks.
    var renderer: any EventRenderer { get }
    /// Queues one payload. Called on ``eventLoop``.
    func write(_ payload: ByteBuffer)
    /// Sends what was queued. Called on ``eventLoop`` after each batch of writes.
    func flush()
    /// The signed-in account behind the connection, if any, so a room can drop the connections of a member who
    /// left.
    var accountID: UUID? { get }
}

extension EventSink {
    public var accountID: UUID? { nil }
}
