extension LoadResult {
    /// At or above this share of one core the generator, not the server, limits the figures.
    static let saturationPercent = 90.0
    /// At or above this share of all cores, server and generator were waiting for CPUs.
    static let machineSaturationPercent = 95.0
    /// Sending this much behind schedule means the generator could not keep to the rate's even spacing.
    static let sendLagWarningMilliseconds = 50.0

    var generatorSaturated: Bool { self.busiestGeneratorCPUPercent >= Self.saturationPercent }

    private var generatorCPU: String {
        guard let workers = self.workerGeneratorSeconds else {
            return "\(self.generatorCPUPercent.fixed(1)) % of one core"
        }
        return "\(self.generatorCPUPercent.fixed(1)) % of one core over \(workers.count) processes, the busiest "
            + "\(self.busiestGeneratorCPUPercent.fixed(1)) % of its core"
    }

    var report: Report {
        Report(
            title: "chat-bench load run against \(self.settings.target.text)", rows: self.rows,
            warnings: self.warnings, json: self.json)
    }

    private var rows: [(label: String, value: String)] {
        let settings = self.settings
        let outcome = self.outcome
        let latency = [outcome.latency.p50, outcome.latency.p99, outcome.latency.p999, outcome.latency.max]
            .map { $0?.fixed(3) ?? "-" }.joined(separator: " / ")
        let unknown = "unknown (no --server-pid)"
        let serverCPU = self.serverCPUSeconds.map { seconds in
            "\(seconds.fixed(2)) s (user \(self.serverCPUSplit?.user.fixed(2) ?? "-"), system \(self.serverCPUSplit?.system.fixed(2) ?? "-")), \(self.serverCPUMicrosPerDelivery?.fixed(2) ?? "-") µs per delivery, \(self.deliveriesPerServerCPUSecond?.fixed(0) ?? "-") deliveries per CPU-second"
        }
        return [
            ("clients connected", "\(outcome.connected) of \(settings.clients) in \(self.connectSeconds.fixed(2)) s"),
            ("senders", "\(settings.senders)"),
            ("rate", "\(settings.rate.fixed(0)) msg/s"),
            ("message text", "\(settings.messageBytes) bytes"),
            ("window", "\(settings.warmup.fixed(1)) s warm-up + \(settings.duration.fixed(1)) s measured"),
            ("messages sent", "\(outcome.sent)"),
            (
                "deliveries",
                "\(outcome.deliveries) of \(self.expectedDeliveries) (\(self.deliveredPercent?.fixed(2) ?? "-") %)"
            ),
            ("deliveries/s", self.deliveriesPerSecond.fixed(0)),
            ("latency p50/p99/p99.9/max", "\(latency) ms"),
            ("server CPU", serverCPU ?? unknown),
            ("server RSS", self.serverRSSKiB.map { "\($0) KiB" } ?? unknown),
            ("generator CPU", self.generatorCPU),
            ("generator send lag", "\(outcome.maxSendLagMilliseconds.fixed(3)) ms at most"),
            ("machine CPU", "\(self.machineCPUPercent.fixed(1)) % of all cores busy"),
            ("disconnects", "\(outcome.disconnects) (\(outcome.serverCloses) closed by the server)"),
            ("error frames", "\(outcome.errorFrames)"),
        ]
    }

    private var warnings: [String] {
        var warnings: [String] = []
        if self.generatorSaturated {
            warnings.append(
                "the load generator used \(self.busiestGeneratorCPUPercent.fixed(1)) % of its core: it saturated, so these "
                    + "figures measure the generator, not the server. Use fewer clients or a lower rate.")
        }
        if self.machineCPUPercent >= Self.machineSaturationPercent {
            warnings.append(
                "the machine's cores were \(self.machineCPUPercent.fixed(1)) % busy: server and generator competed "
                    + "for CPUs, so latency includes waiting for one.")
        }
        if self.outcome.maxSendLagMilliseconds >= Self.sendLagWarningMilliseconds {
            warnings.append(
                "the generator sent messages up to \(self.outcome.maxSendLagMilliseconds.fixed(1)) ms behind "
                    + "schedule (it was busy or waiting for a CPU), so the load was burstier than the rate.")
        }
        if let percent = self.deliveredPercent, percent < 100 {
            warnings.append("only \(percent.fixed(2)) % of the expected deliveries arrived.")
        }
        if self.outcome.disconnects > 0 {
            warnings.append("\(self.outcome.disconnects) clients lost their connection during the run.")
        }
        if self.outcome.errorFrames > 0 {
            warnings.append("the server answered \(self.outcome.errorFrames) messages with an error frame.")
        }
        return warnings
    }

    private var json: JSONValue {
        let latency = self.outcome.latency
        return .object([
            ("mode", .string("load")),
            ("url", .string(self.settings.target.text)),
            ("protocol", .string(self.settings.audience == nil ? "chat" : "modern")),
            ("rooms", .integer(self.settings.rooms)),
            ("clients", .integer(self.settings.clients)),
            ("sourceAddresses", .integer(self.settings.sources.count)),
            ("connected", .integer(self.outcome.connected)),
            ("senders", .integer(self.settings.senders)),
            ("rate", .number(self.settings.rate, decimals: 3)),
            ("duration", .number(self.settings.duration, decimals: 3)),
            ("warmup", .number(self.settings.warmup, decimals: 3)),
            ("messageBytes", .integer(self.settings.messageBytes)),
            ("connectSeconds", .number(self.connectSeconds, decimals: 3)),
            ("sent", .integer(self.outcome.sent)),
            ("expectedDeliveries", .integer(self.expectedDeliveries)),
            ("deliveries", .integer(self.outcome.deliveries)),
            ("deliveredPercent", .optional(self.deliveredPercent, decimals: 3)),
            ("deliveriesPerSecond", .number(self.deliveriesPerSecond, decimals: 1)),
            (
                "latencyMs",
                .object([
                    ("p50", .optional(latency.p50, decimals: 3)),
                    ("p99", .optional(latency.p99, decimals: 3)),
                    ("p999", .optional(latency.p999, decimals: 3)),
                    ("max", .optional(latency.max, decimals: 3)),
                ])
            ),
            ("serverCPUSeconds", .optional(self.serverCPUSeconds, decimals: 3)),
            ("serverCPUMicrosPerDelivery", .optional(self.serverCPUMicrosPerDelivery, decimals: 3)),
            ("serverUserCPUSeconds", .optional(self.serverCPUSplit?.user, decimals: 3)),
            ("serverSystemCPUSeconds", .optional(self.serverCPUSplit?.system, decimals: 3)),
            ("deliveriesPerServerCPUSecond", .optional(self.deliveriesPerServerCPUSecond, decimals: 0)),
            ("serverRSSKiB", self.serverRSSKiB.map(JSONValue.integer) ?? .null),
            ("generatorCPUPercent", .number(self.generatorCPUPercent, decimals: 1)),
            ("generatorProcesses", .integer(self.workerGeneratorSeconds?.count ?? 1)),
            ("busiestGeneratorCPUPercent", .number(self.busiestGeneratorCPUPercent, decimals: 1)),
            ("generatorSaturated", .bool(self.generatorSaturated)),
            ("generatorMaxSendLagMs", .number(self.outcome.maxSendLagMilliseconds, decimals: 3)),
            ("machineCPUPercent", .number(self.machineCPUPercent, decimals: 1)),
            ("disconnects", .integer(self.outcome.disconnects)),
            ("serverCloses", .integer(self.outcome.serverCloses)),
            ("errorFrames", .integer(self.outcome.errorFrames)),
        ])
    }
}
