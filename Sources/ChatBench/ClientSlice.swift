/// The clients one generator process opens: `count` of the run's `total`, from global index `first` on. A run in
/// one process holds them all; ``SpreadRun`` gives each worker process a slice.
///
/// Everything that names a client uses its global index: the node it connects to, its account and room on the
/// modern protocol, its source address, and whether it sends (the run's first `--senders` clients do).
struct ClientSlice: Sendable, Codable {
    let first: Int
    let count: Int
    let total: Int

    static func whole(_ total: Int) -> ClientSlice {
        ClientSlice(first: 0, count: total, total: total)
    }

    /// Slice `index` of `parts` nearly equal ones.
    static func part(_ index: Int, of parts: Int, total: Int) -> ClientSlice {
        let first = index * total / parts
        return ClientSlice(first: first, count: (index + 1) * total / parts - first, total: total)
    }

    var globalIndices: Range<Int> { self.first..<(self.first + self.count) }

    func global(_ local: Int) -> Int { self.first + local }

    /// The senders among this slice's clients, as global indices.
    func senders(of total: Int) -> Range<Int> {
        self.globalIndices.clamped(to: 0..<total)
    }

    /// How many of this slice's clients receive what sender `sender` sends: all of them in the lobby; with
    /// `rooms` rooms (client `i` in room `i % rooms`), those in the sender's room.
    func receivers(ofSender sender: Int, rooms: Int) -> Int {
        guard rooms > 1 else { return self.count }
        let room = sender % rooms
        // Global indices i in the slice with i % rooms == room.
        func upTo(_ end: Int) -> Int { end <= room ? 0 : (end - room + rooms - 1) / rooms }
        return upTo(self.first + self.count) - upTo(self.first)
    }
}
