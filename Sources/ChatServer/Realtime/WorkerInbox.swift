import ChatProtocol
import NIOConcurrencyHelpers
import NIOCore

/// What one modern connection's ``ModernWorker`` has still to do, in order: the connection opened, each frame it
/// received, the connection closed.
///
/// A task runs the worker only while something waits here, and ends once the inbox is empty, so an idle connection
/// holds no task. That is the point: a Swift task keeps the largest stack its calls ever needed (its allocator's
/// slabs) until it ends, and a worker that had resumed a room kept about 11 KiB that way for as long as its
/// connection stayed open. ``post(_:)`` says when the caller must start that task; ``next()`` hands the task its
/// items and, when there are none, lets it end under the same lock, so an item is never left without a task.
///
/// The inbox also bounds the frames waiting. At ``pauseAt`` frames the channel stops reading from the socket
/// (backpressure: the client's own TCP window fills up) and reading resumes once the worker is down to half of that.
/// Frames already read in the last buffer still arrive; should they pile up to ``closeAt`` (thousands of tiny frames
/// in one read), the frame is refused and the session closes the connection with 1008.
final class WorkerInbox: Sendable {
    enum Item: Sendable {
        case opened
        case frame(ClientMessage)
        case closed
    }

    /// What the poster of an item does next.
    enum Posted {
        /// A worker task is running and will take the item.
        case queued
        /// No task was running: the poster starts one, which calls ``next()`` until it returns `nil`.
        case startWorker
        /// The frame was refused: ``closeAt`` frames are waiting.
        case overflow
    }

    /// Frames waiting before the socket stops being read.
    static let pauseAt = 64
    /// Frames waiting at which the connection is dropped.
    static let closeAt = 1024

    private struct State {
        var items = CircularBuffer<Item>()
        var frames = 0
        var paused = false
        var working = false
    }

    private let channel: any Channel
    private let state = NIOLockedValueBox(State())

    init(channel: any Channel) {
        self.channel = channel
    }

    /// Queues an item for the worker. Call on the event loop.
    func post(_ item: Item) -> Posted {
        let (posted, pause) = self.state.withLockedValue { state -> (Posted, Bool) in
            var pause = false
            if case .frame = item {
                guard state.frames < Self.closeAt else { return (.overflow, false) }
                state.frames += 1
                pause = !state.paused && state.frames >= Self.pauseAt
                if pause { state.paused = true }
            }
            state.items.append(item)
            guard !state.working else { return (.queued, pause) }
            state.working = true
            return (.startWorker, pause)
        }
        if pause {
            try? self.channel.syncOptions?.setOption(.autoRead, value: false)
        }
        return posted
    }

    /// The next item for the worker task, or `nil` when there is none: the task then ends, and the next
    /// ``post(_:)`` starts another. Call from the worker task only.
    func next() -> Item? {
        let (item, resume) = self.state.withLockedValue { state -> (Item?, Bool) in
            guard let item = state.items.popFirst() else {
                state.working = false
                return (nil, false)
            }
            guard case .frame = item else { return (item, false) }
            state.frames -= 1
            let resume = state.paused && state.frames <= Self.pauseAt / 2
            if resume { state.paused = false }
            return (item, resume)
        }
        if resume {
            let channel = self.channel
            channel.eventLoop.execute {
                try? channel.syncOptions?.setOption(.autoRead, value: true)
                channel.read()
            }
        }
        return item
    }
}
