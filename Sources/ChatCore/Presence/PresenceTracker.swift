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
        /// Grace timers and reports in flight, by generation.
        var tasks: [Int: Task<Void, Never>] = [:]
        var closed = false
    }

    private let state = NIOLockedValueBox(State())
    private let grace: Duration
    private let onChange: Change

    public init(grace: Duration, onChange: @escaping Change) {
        self.grace = grace
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
        self.state.withLockedValue { state in
            guard !state.closed else { return }
            state.leaving[user] = nil
            let cameOnline = state.connections[user] == nil
            state.connections[user, default: 0] += 1
            if cameOnline {
                self.start(in: &state) { await self.onChange(user, true, nil) }
            }
        }
    }

    /// A connection of `user` closed; after the grace period, if none is open, they go offline.
    public func disconnected(_ user: UUID) {
        self.state.withLockedValue { state in
            guard !state.closed, let count = state.connections[user] else { return }
            guard count == 1 else {
                state.connections[user] = count - 1
                return
            }
            state.connections[user] = 0
            let generation = state.generation + 1
            state.leaving[user] = generation
            self.start(in: &state) { [grace] in
                try? await Task.sleep(for: grace)
                await self.expire(user, generation: generation)
            }
        }
    }

    /// Stops reporting: pending offline checks are cancelled, reports in flight are awaited.
    public func close() async {
        let tasks = self.state.withLockedValue { state in
            state.closed = true
            return Array(state.tasks.values)
        }
        for task in tasks {
            task.cancel()
            await task.value
        }
    }

    /// Runs `work` as a task that removes itself from `tasks` when done; returns its generation.
    @discardableResult
    private func start(in state: inout State, _ work: @escaping @Sendable () async -> Void) -> Int {
        state.generation += 1
        let generation = state.generation
        state.tasks[generation] = Task {
            await work()
            self.state.withLockedValue { _ = $0.tasks.removeValue(forKey: generation) }
        }
        return generation
    }

    private func expire(_ user: UUID, generation: Int) async {
        let wentOffline = self.state.withLockedValue { state -> Bool in
            guard !state.closed, !Task.isCancelled, state.leaving[user] == generation, state.connections[user] == 0 else { return false }
            state.leaving[user] = nil
            state.connections[user] = nil
            return true
        }
        if wentOffline { await self.onChange(user, false, Date()) }
    }
}
