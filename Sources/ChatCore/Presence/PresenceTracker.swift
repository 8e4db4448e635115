import Foundation
import NIOConcurrencyHelpers

/// Who is online, from the count of each user's open connections (PROTOCOL.md §9.5).
///
/// A user comes online with their first connection. When their last one closes they stay online for a grace
/// period, and only go offline if no connection has opened by then: a reconnect (a network change, a reload) does
/// not flap. Each change is reported by calling `onChange` in a task of its own; ``close()`` stops the timers and
/// waits for the reports in flight, so none runs after the server has shut down.
public final class PresenceTracker: Sendable {
    /// A change to report: the user, whether they are online now, and when they were last seen (going offline).
    public typealias Change = @Sendable (_ user: UUID, _ online: Bool, _ lastSeen: Date?) async -> Void

    private struct State {
        var connections: [UUID: Int] = [:]
        /// Users whose last connection closed, by the generation of the pending offline check.
        var leaving: [UUID: Int] = [:]
        var generation = 0
    }

    private let state = NIOLockedValueBox(State())
    /// Grace timers and reports in flight.
    private let tasks = BackgroundTasks()
    private let grace: Duration
    private let time: any TimeSource
    private let onChange: Change

    public init(grace: Duration, time: any TimeSource = SystemTime(), onChange: @escaping Change) {
        self.grace = grace
        self.time = time
        self.onChange = onChange
    }

    /// Whether the user counts as online now (connected, or within the grace period).
    public func isOnline(_ user: UUID) -> Bool {
        self.state.withLockedValue { $0.connections[user] != nil }
    }

    /// Everyone who counts as online now.
    public var onlineUsers: Set<UUID> {
        self.state.withLockedValue { Set($0.connections.keys) }
    }

    /// A connection of `user` opened.
    public func connected(_ user: UUID) {
        let cameOnline = self.state.withLockedValue { state in
            state.leaving[user] = nil
            defer { state.connections[user, default: 0] += 1 }
            return state.connections[user] == nil
        }
        if cameOnline {
            self.tasks.run { await self.onChange(user, true, nil) }
        }
    }

    /// A connection of `user` closed; after the grace period, if none is open, they go offline.
    public func disconnected(_ user: UUID) {
        let generation = self.state.withLockedValue { state -> Int? in
            guard let count = state.connections[user] else { return nil }
            guard count == 1 else {
                state.connections[user] = count - 1
                return nil
            }
            state.connections[user] = 0
            state.generation += 1
            state.leaving[user] = state.generation
            return state.generation
        }
        guard let generation else { return }
        self.tasks.run { [grace, time] in
            try? await time.sleep(for: grace)
            await self.expire(user, generation: generation)
        }
    }

    /// Stops reporting: pending offline checks are cancelled, reports in flight are awaited.
    public func close() async {
        await self.tasks.close()
    }

    private func expire(_ user: UUID, generation: Int) async {
        let wentOffline = self.state.withLockedValue { state -> Bool in
            guard !Task.isCancelled, state.leaving[user] == generation, state.connections[user] == 0 else {
                return false
            }
            state.leaving[user] = nil
            state.connections[user] = nil
            return true
        }
        if wentOffline { await self.onChange(user, false, Date()) }
    }
}
