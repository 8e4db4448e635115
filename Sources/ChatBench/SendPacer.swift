/// Sends the timed messages at the requested rate. Confined to the generator's event loop.
///
/// Sender `i` of `S` (by global index, whichever process holds it) sends its `k`-th message at
/// `start + (k + (i + ½)/S) × S/R` seconds, so together the senders send `R` messages a second, evenly spread, none
/// due exactly on the window's edges. Each tick of a timer sends
/// whatever has come due, so a late timer delays messages but does not lower the rate.
final class SendPacer {
    /// The global indices of this process's senders (all of them in a run of one process).
    private let own: Range<Int>
    private let encoders: [MessageEncoder]
    private var senders: [BenchClientHandler?]
    private var sequences: [UInt64]
    private let totalSenders: Int
    private let intervalNanos: Double
    private var start: UInt64 = 0
    private var measuredFrom: UInt64 = 0
    private var measuredUntil: UInt64 = 0
    /// Messages sent inside the measured window, by this process's senders in order.
    private(set) var measuredSentBySender: [Int]
    /// Messages sent inside the measured window.
    var measuredSent: Int { self.measuredSentBySender.reduce(0, +) }
    /// How late the latest message of the measured window was sent: a busy or starved generator falls behind.
    private(set) var maxSendLagNanos: UInt64 = 0

    /// `own`: the global indices of this process's senders, of `totalSenders`; `rooms`: on the modern protocol,
    /// each client's room by global index (a sender sends into its own).
    init(run: RunIdentity, own: Range<Int>, totalSenders: Int, rate: Double, textBytes: Int, rooms: [String]?) {
        self.own = own
        self.encoders = own.map { MessageEncoder(run: run, sender: $0, textBytes: textBytes, room: rooms?[$0]) }
        self.senders = Array(repeating: nil, count: own.count)
        self.sequences = Array(repeating: 0, count: own.count)
        self.measuredSentBySender = Array(repeating: 0, count: own.count)
        self.totalSenders = totalSenders
        self.intervalNanos = Double(totalSenders) * 1e9 / rate
    }

    /// Makes the client with global index `index` a sender if it is one of this process's.
    func register(index: Int, handler: BenchClientHandler) {
        guard self.own.contains(index) else { return }
        self.senders[index - self.own.lowerBound] = handler
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
        guard now < self.measuredUntil else { return false }
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
                    self.measuredSentBySender[index] += 1
                    self.maxSendLagNanos = max(self.maxSendLagNanos, sentNanos - due)
                }
            }
        }
        return true
    }

    /// When the `index`-th of this process's senders sends its next message.
    private func dueTime(of index: Int) -> UInt64 {
        let phase = (Double(self.own.lowerBound + index) + 0.5) / Double(self.totalSenders)
        return self.start + UInt64((Double(self.sequences[index]) + phase) * self.intervalNanos)
    }
}
