import NIOConcurrencyHelpers
import NIOCore

/// Bounds the frames one modern connection has received but its worker has not handled yet.
///
/// The session adds a frame on the event loop, the worker takes it off when handled. At ``pauseAt`` frames the
/// channel stops reading from the socket (backpressure: the client's own TCP window fills up) and reading resumes
/// once the worker is down to half of that. Frames already read in the last buffer still arrive; should they pile
/// up to ``closeAt`` (thousands of tiny frames in one read), the connection is closed with 1008 instead.
final class InboundBacklog: Sendable {
    /// Frames waiting before the socket stops being read.
    static let pauseAt = 64
    /// Frames waiting at which the connection is dropped.
    static let closeAt = 1024

    private let channel: any Channel
    private let state = NIOLockedValueBox((waiting: 0, paused: false))

    init(channel: any Channel) {
        self.channel = channel
    }

    /// A frame is queued for the worker; `false` when the backlog is over ``closeAt``. Call on the event loop.
    func added() -> Bool {
        let (waiting, pause) = self.state.withLockedValue { state in
            state.waiting += 1
            let pause = !state.paused && state.waiting >= Self.pauseAt
            if pause { state.paused = true }
            return (state.waiting, pause)
        }
        if pause {
            try? self.channel.syncOptions?.setOption(.autoRead, value: false)
        }
        return waiting <= Self.closeAt
    }

    /// The worker handled a frame. Call from anywhere.
    func handled() {
        let resume = self.state.withLockedValue { state in
            state.waiting -= 1
            let resume = state.paused && state.waiting <= Self.pauseAt / 2
            if resume { state.paused = false }
            return resume
        }
        guard resume else { return }
        let channel = self.channel
        channel.eventLoop.execute {
            try? channel.syncOptions?.setOption(.autoRead, value: true)
            channel.read()
        }
    }
}
