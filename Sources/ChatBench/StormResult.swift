/// The figures of a reconnect storm and how they are reported.
struct StormResult {
    let clients: Int
    let connectSeconds: Double
    /// Messages the sender sent.
    let sent: UInt64
    /// Connections lost when the node was killed, and before (which should be none).
    let losses: Int
    let unexpectedLosses: Int
    /// Each lost connection's time from the kill to its `resumed`, in nanoseconds, ascending.
    let backAfter: [UInt64]
    let gaps: UInt64
    let duplicates: Int
    /// Clients whose last message at the end was not the last one sent.
    let behind: Int
    /// Upgrades answered without switching to WebSocket (a shedding node's `503`), each tried again.
    let refusedUpgrades: Int
    /// Connections that could not be opened (the killed node's port), each tried on the next node.
    let failedConnects: Int
    let errorFrames: Int
    let incompleteResumes: Int

    /// Every client resumed with every message once.
    var passed: Bool {
        self.gaps == 0 && self.duplicates == 0 && self.behind == 0 && self.backAfter.count == self.losses
            && self.losses > 0
    }

    private func backSeconds(atQuantile quantile: Double) -> Double? {
        guard !self.backAfter.isEmpty else { return nil }
        let position = min(self.backAfter.count - 1, Int((Double(self.backAfter.count) * quantile).rounded(.up)) - 1)
        return Monotonic.seconds(self.backAfter[max(0, position)])
    }

    var report: Report {
        let p50 = self.backSeconds(atQuantile: 0.5)
        let p99 = self.backSeconds(atQuantile: 0.99)
        let last = self.backSeconds(atQuantile: 1)
        func seconds(_ value: Double?) -> String { value.map { "\($0.fixed(2)) s" } ?? "–" }
        let rows: [(label: String, value: String)] = [
            ("clients", "\(self.clients), connected in \(self.connectSeconds.fixed(1)) s"),
            ("connections lost at the kill", "\(self.losses) (before it: \(self.unexpectedLosses))"),
            (
                "back after the kill",
                "\(self.backAfter.count): p50 \(seconds(p50)), p99 \(seconds(p99)), all \(seconds(last))"
            ),
            ("messages sent", "\(self.sent)"),
            ("gaps, duplicates", "\(self.gaps), \(self.duplicates)"),
            ("clients behind at the end", "\(self.behind)"),
            ("upgrades refused, retried", "\(self.refusedUpgrades)"),
            ("connects failed, tried elsewhere", "\(self.failedConnects)"),
            ("error frames, incomplete resumes", "\(self.errorFrames), \(self.incompleteResumes)"),
        ]
        var warnings: [String] = []
        if !self.passed { warnings.append("Not every client came back with every message exactly once.") }
        let json = JSONValue.object([
            ("mode", .string("storm")),
            ("clients", .integer(self.clients)),
            ("connectSeconds", .number(self.connectSeconds, decimals: 2)),
            ("losses", .integer(self.losses)),
            ("unexpectedLosses", .integer(self.unexpectedLosses)),
            ("back", .integer(self.backAfter.count)),
            ("backP50Seconds", .optional(p50, decimals: 3)),
            ("backP99Seconds", .optional(p99, decimals: 3)),
            ("allBackSeconds", .optional(last, decimals: 3)),
            ("sent", .integer(Int(self.sent))),
            ("gaps", .integer(Int(self.gaps))),
            ("duplicates", .integer(self.duplicates)),
            ("behind", .integer(self.behind)),
            ("refusedUpgrades", .integer(self.refusedUpgrades)),
            ("failedConnects", .integer(self.failedConnects)),
            ("errorFrames", .integer(self.errorFrames)),
            ("incompleteResumes", .integer(self.incompleteResumes)),
            ("passed", .bool(self.passed)),
        ])
        return Report(title: "chat-bench reconnect storm", rows: rows, warnings: warnings, json: json)
    }
}
