import NIOConcurrencyHelpers
import NIOCore

/// Keeps one WebSocket endpoint's connections alive with one timer per event loop instead of one per connection: an
/// idle connection costs an entry in its loop's table, not a repeating scheduled task with its promise and closure
/// (docs/BENCHMARKS.md, "Idle memory").
///
/// Every `interval`, each loop's sweep asks each of its connections to ping, or to go if its peer was silent for two
/// intervals. So a connection gets its first ping within one interval of opening, then one every interval, and a
/// silent peer is dropped two to three intervals after it was last heard.
final class KeepaliveSweeps: Sendable {
    let interval: TimeAmount
    private let byLoop = NIOLockedValueBox<[ObjectIdentifier: KeepaliveSweep]>([:])

    init(interval: TimeAmount) {
        self.interval = interval
    }

    /// The sweep of `loop`, created the first time a connection of that loop asks.
    func sweep(on loop: any EventLoop) -> KeepaliveSweep {
        self.byLoop.withLockedValue { sweeps in
            if let sweep = sweeps[ObjectIdentifier(loop)] { return sweep }
            let sweep = KeepaliveSweep(loop: loop, interval: self.interval)
            sweeps[ObjectIdentifier(loop)] = sweep
            return sweep
        }
    }
}

/// The connections of one event loop. Used on that loop only; its timer runs while it has connections.
final class KeepaliveSweep: @unchecked Sendable {
    private let loop: any EventLoop
    private let interval: TimeAmount
    private var connections: [ObjectIdentifier: WebSocketConnectionHandler] = [:]
    private var timer: RepeatedTask?

    fileprivate init(loop: any EventLoop, interval: TimeAmount) {
        self.loop = loop
        self.interval = interval
    }

    func add(_ handler: WebSocketConnectionHandler) {
        self.loop.preconditionInEventLoop()
        self.connections[ObjectIdentifier(handler)] = handler
        guard self.timer == nil else { return }
        self.timer = self.loop.scheduleRepeatedTask(initialDelay: self.interval, delay: self.interval) { [self] _ in
            self.sweep()
        }
    }

    func remove(_ handler: WebSocketConnectionHandler) {
        self.loop.preconditionInEventLoop()
        self.connections[ObjectIdentifier(handler)] = nil
        if self.connections.isEmpty {
            self.timer?.cancel()
            self.timer = nil
        }
    }

    /// Over a copy of the table: a connection that closes during the sweep removes itself.
    private func sweep() {
        let silentSince = NIODeadline.now() - self.interval * 2
        for handler in self.connections.values {
            handler.keepalive(silentSince: silentSince)
        }
    }
}
