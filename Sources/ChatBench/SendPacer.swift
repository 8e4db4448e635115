/// Sends the timed messages at the requested rate. Confined to the generator's event loop.
///
/// Sender `i` of `S` sends its `k`-th message at `start + (k + (i + ½)/S) × S/R` seconds, so together the senders
/// send `R` messages a second, evenly spread, none due exactly on the window's edges. Each tick of a timer sends
/// whatever has come due, so a late timer delays messages but does not lower the rate.
final class SendPacer {
    private let encoders: [MessageEncoder]
    private var senders: [BenchClientHandler?]
    private var sequences: [UInt64]
    private let intervalNanos: Double
    private var start: UInt64 = 0
    private var measuredFrom: UInt64 = 0
    private var measuredUntil: UInt64 = 0
    /// Messages sent inside the measured window.
    private(set) var measuredSent = 0
    /// How late the latest message of the measured window was sent: a busy or starved generator falls behind.
    private(set) var maxSendLagNanos: UInt64 = 0
    /// Whether the window is over and nothing more will be sent.
    private(set) var finished = false

    /// `rooms`: on the modern protocol, each client's room (a sender sends into its own).
    init(run: RunIdentity, senders: Int, rate: Double, textBytes: Int, rooms: [String]?) {
        self.encoders = (0..<senders).map {
            MessageEncoder(run: run, sender: $0, textBytes: textBytes, room: rooms?[$0])
        }
        self.senders = Array(repeating: nil, count: senders)
        self.sequences = Array(repeating: 0, count: senders)
        self.intervalNanos = Double(senders) * 1e9 / rate
    }

    /// Makes client `index` a sender if it is one of the first clients.
    func register(index: Int, handler: BenchClientHandler) {
        guard self.senders.indices.contains(index) else { return }
        self.senders[index] = handler
    }

    /// Each sender greets once, so the server announces it before anything is measured; returns how many did.
    func sendHellos() -> Int {
        var sent = 0
        for (handler, encoder) in zip(self.senders, self.encoders) where handler?.send(encoder.hello()) == true {
            sent += 1
        }
        return sent
    }

    /// Sets the schedule: sending starts at `start` and stops at `until`; messages sent from `measuredFrom` on
    /// are counted (all times monotonic nanoseconds).
    func schedule(start: UInt64, measuredFrom: UInt64, until: UInt64) {
        self.start = start
        self.measuredFrom = measuredFrom
        self.measuredUntil = until
    }

    /// Sends every message that has come due; returns false once the measured window is over.
    func tick() -> Bool {
        let now = Monotonic.now
        guard now < self.measuredUntil else {
            self.finished = true
            return false
        }
        for index in self.senders.indices {
            while true {
                let due = self.dueTime(of: index)
                guard due <= now else { break }
                let sequence = self.sequences[index]
                self.sequences[index] += 1
                let sentNanos = Monotonic.now
                let message = self.encoders[index].message(sequence: sequence, sentNanos: sentNanos)
                let measured = sentNanos >= self.measuredFrom && sentNanos < self.measuredUntil
                if self.senders[index]?.send(message) == true, measured {
                    self.measuredSent += 1
                    self.maxSendLagNanos = max(self.maxSendLagNanos, sentNanos - due)
                }
            }
        }
        return true
    }

    private func dueTime(of index: Int) -> UInt64 {
        let phase = (Double(index) + 0.5) / Double(self.senders.count)
        return self.start + UInt64((Double(self.sequences[index]) + phase) * self.intervalNanos)
    }
}
