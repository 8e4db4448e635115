import ChatCore
import Testing

@Suite("ManualTime: a clock that moves when told to, and wakes its sleepers then")
struct ManualTimeTests {
    @Test("a sleeper wakes when the time reaches its deadline, not before")
    func wakesAtTheDeadline() async throws {
        let time = ManualTime()
        let woke = Task { try await time.sleep(for: .seconds(10)) }
        while time.sleepers == 0 { await Task.yield() }
        time.advance(by: .seconds(9))
        #expect(time.sleepers == 1)
        time.advance(by: .seconds(1))
        try await woke.value
        #expect(time.sleepers == 0)
    }

    @Test("a deadline already reached returns at once")
    func pastDeadline() async throws {
        let time = ManualTime()
        try await time.sleep(until: time.now)
        try await time.sleep(for: .zero)
        #expect(time.sleepers == 0)
    }

    @Test("a cancelled sleeper throws at once, however far its deadline")
    func cancelled() async throws {
        let time = ManualTime()
        let sleeper = Task { try await time.sleep(for: .seconds(3600)) }
        while time.sleepers == 0 { await Task.yield() }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(time.sleepers == 0)
    }

    @Test("it is a Clock: Task.sleep on it wakes when it is advanced")
    func isAClock() async throws {
        let time = ManualTime()
        let woke = Task { try await Task.sleep(for: .seconds(5), clock: time) }
        while time.sleepers == 0 { await Task.yield() }
        time.advance(by: .seconds(5))
        try await woke.value
    }
}
