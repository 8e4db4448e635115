/// The figures of an idle-memory run and how they are reported.
struct IdleResult {
    let settings: IdleRun.Settings
    let connected: Int
    let connectSeconds: Double
    /// Upgrades the server refused (and that were tried again) while the clients connected.
    let refusedUpgrades: Int
    let rssBeforeKiB: Int
    let rssAfterKiB: Int
    let historyFrames: Int
    let disconnects: Int
    let held: Hold?

    /// What holding the connections open cost the server.
    struct Hold {
        let seconds: Double
        let serverCPUSeconds: Double
        let pings: Int
    }

    var kibPerConnection: Double {
        Double(self.rssAfterKiB - self.rssBeforeKiB) / Double(self.settings.clients)
    }

    var report: Report {
        let rows: [(label: String, value: String)] =
            [
                (
                    "clients connected",
                    "\(self.connected) of \(self.settings.clients) in \(self.connectSeconds.fixed(2)) s"
                ),
                ("upgrades refused, retried", "\(self.refusedUpgrades)"),
                ("history frames received", "\(self.historyFrames)"),
                ("server RSS before", "\(self.rssBeforeKiB) KiB"),
                ("server RSS after", "\(self.rssAfterKiB) KiB"),
                ("per connection", "\(self.kibPerConnection.fixed(2)) KiB"),
                ("disconnects", "\(self.disconnects)"),
            ]
            + (self.held.map { held in
                [
                    (
                        "held open",
                        "\(held.seconds.fixed(0)) s: \(held.pings) pings answered, server CPU "
                            + "\(held.serverCPUSeconds.fixed(2)) s (\((100 * held.serverCPUSeconds / held.seconds).fixed(2)) % of a core)"
                    )
                ]
            } ?? [])
        let warnings = self.disconnects > 0 ? ["\(self.disconnects) clients lost their connection while idle."] : []
        let json = JSONValue.object([
            ("mode", .string("idle")),
            ("url", .string(self.settings.target.text)),
            ("protocol", .string(self.settings.rooms == nil ? "chat" : "modern")),
            ("clients", .integer(self.settings.clients)),
            ("connected", .integer(self.connected)),
            ("connectSeconds", .number(self.connectSeconds, decimals: 3)),
            ("refusedUpgrades", .integer(self.refusedUpgrades)),
            ("historyFrames", .integer(self.historyFrames)),
            ("serverRSSBeforeKiB", .integer(self.rssBeforeKiB)),
            ("serverRSSAfterKiB", .integer(self.rssAfterKiB)),
            ("serverKiBPerConnection", .number(self.kibPerConnection, decimals: 3)),
            ("disconnects", .integer(self.disconnects)),
            ("heldSeconds", .optional(self.held?.seconds, decimals: 1)),
            ("heldPings", self.held.map { .integer($0.pings) } ?? .null),
            ("heldServerCPUSeconds", .optional(self.held?.serverCPUSeconds, decimals: 3)),
        ])
        return Report(
            title: "chat-bench idle-memory run against \(self.settings.target.text)", rows: rows, warnings: warnings,
            json: json)
    }
}
