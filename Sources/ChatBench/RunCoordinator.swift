/// When a run sends: from `start`, measured from `measuredFrom` until `until` (monotonic nanoseconds, one clock for
/// every process on the machine).
struct RunWindow: Sendable, Codable {
    let start: UInt64
    let measuredFrom: UInt64
    let until: UInt64
}

/// The points where the processes of one run wait for each other. A load run asks it three things, in order; in a
/// run of one process (``LocalCoordinator``) each answer is the process's own.
protocol RunCoordinator: Sendable {
    /// How many senders greeted in the whole run, given how many did here; returns once every process has
    /// connected and greeted.
    func greeted(here: Int) async throws -> Int
    /// The window every process sends in, given the one this process would choose.
    func window(proposed: RunWindow) async throws -> RunWindow
    /// How many messages each sender of the run sent in the window, by global index, given this process's
    /// counts (zero for the senders of other processes).
    func sentBySender(here: [Int]) async throws -> [Int]
}

/// A run in one process: nothing to agree with.
struct LocalCoordinator: RunCoordinator {
    func greeted(here: Int) async throws -> Int { here }
    func window(proposed: RunWindow) async throws -> RunWindow { proposed }
    func sentBySender(here: [Int]) async throws -> [Int] { here }
}
