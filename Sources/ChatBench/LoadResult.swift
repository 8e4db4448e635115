/// The figures of a load run.
struct LoadResult {
    let settings: LoadRun.Settings
    let connectSeconds: Double
    let outcome: LoadOutcome
    let cpuBefore: CPUSample
    let cpuAfter: CPUSample
    let serverRSSKiB: Int?
    /// In a spread run, each worker process's CPU time in the window.
    var workerGeneratorSeconds: [Double]? = nil

    var expectedDeliveries: Int { self.outcome.sent * self.settings.receiversPerMessage }

    var deliveredPercent: Double? {
        self.expectedDeliveries > 0 ? 100 * Double(self.outcome.deliveries) / Double(self.expectedDeliveries) : nil
    }

    var deliveriesPerSecond: Double { Double(self.outcome.deliveries) / self.settings.duration }

    var serverCPUSeconds: Double? {
        guard let before = self.cpuBefore.serverSeconds, let after = self.cpuAfter.serverSeconds else { return nil }
        return after - before
    }

    /// The server's user and system CPU time during the window.
    var serverCPUSplit: CPUTimes? {
        guard let before = self.cpuBefore.server, let after = self.cpuAfter.server else { return nil }
        return CPUTimes(user: after.user - before.user, system: after.system - before.system)
    }

    /// Deliveries per second of server CPU: what one server core would deliver if this load kept it busy.
    var deliveriesPerServerCPUSecond: Double? {
        guard let seconds = self.serverCPUSeconds, seconds > 0 else { return nil }
        return Double(self.outcome.deliveries) / seconds
    }

    var serverCPUMicrosPerDelivery: Double? {
        guard let seconds = self.serverCPUSeconds, self.outcome.deliveries > 0 else { return nil }
        return seconds * 1e6 / Double(self.outcome.deliveries)
    }

    private var windowSeconds: Double { Monotonic.seconds(self.cpuAfter.time - self.cpuBefore.time) }

    /// The generator's CPU time over the window, as a share of one core (summed over a spread run's processes).
    var generatorCPUPercent: Double {
        100 * (self.cpuAfter.generatorSeconds - self.cpuBefore.generatorSeconds) / self.windowSeconds
    }

    /// The busiest generator process's share of its core: the one that would saturate first.
    var busiestGeneratorCPUPercent: Double {
        guard let seconds = self.workerGeneratorSeconds?.max() else { return self.generatorCPUPercent }
        return 100 * seconds / self.windowSeconds
    }

    var machineCPUPercent: Double { self.cpuAfter.machine.busyPercent(since: self.cpuBefore.machine) }
}
