/// The figures of a load run.
struct LoadResult {
    let settings: LoadRun.Settings
    let connectSeconds: Double
    let outcome: LoadOutcome
    let cpuBefore: CPUSample
    let cpuAfter: CPUSample
    let serverRSSKiB: Int?

    var expectedDeliveries: Int { self.outcome.sent * self.settings.clients }

    var deliveredPercent: Double? {
        self.expectedDeliveries > 0 ? 100 * Double(self.outcome.deliveries) / Double(self.expectedDeliveries) : nil
    }

    var deliveriesPerSecond: Double { Double(self.outcome.deliveries) / self.settings.duration }

    var serverCPUSeconds: Double? {
        guard let before = self.cpuBefore.serverSeconds, let after = self.cpuAfter.serverSeconds else { return nil }
        return after - before
    }

    var serverCPUMicrosPerDelivery: Double? {
        guard let seconds = self.serverCPUSeconds, self.outcome.deliveries > 0 else { return nil }
        return seconds * 1e6 / Double(self.outcome.deliveries)
    }

    var generatorCPUPercent: Double {
        let wall = Monotonic.seconds(self.cpuAfter.time - self.cpuBefore.time)
        return 100 * (self.cpuAfter.generatorSeconds - self.cpuBefore.generatorSeconds) / wall
    }

    var machineCPUPercent: Double { self.cpuAfter.machine.busyPercent(since: self.cpuBefore.machine) }
}
