import ChatCore
import NIOConcurrencyHelpers
import Testing

@Suite("BackgroundTasks")
struct BackgroundTasksTests {
    @Test("close cancels every task and waits for those that end; one that never answers is left behind, counted")
    func closeLeavesAStuckTaskBehind() async throws {
        // setup: a task that heeds cancellation, and one stuck as a query on a dead connection is
        let tasks = BackgroundTasks()
        let stuck = Stuck()
        let politeEnded = NIOLockedValueBox(false)
        tasks.run {
            try? await Task.sleep(for: .seconds(3600))
            politeEnded.withLockedValue { $0 = true }
        }
        tasks.run { await stuck.wait() }
        // act
        let leftBehind = await tasks.close(within: .milliseconds(200))
        // validate: both were cancelled, the polite one ended, the stuck one is counted; nothing new starts
        #expect(leftBehind == 1)
        #expect(politeEnded.withLockedValue { $0 })
        #expect(await stuck.sawCancellation())
        let lateRan = NIOLockedValueBox(false)
        tasks.run { lateRan.withLockedValue { $0 = true } }
        stuck.release()
        #expect(await tasks.close(within: .seconds(5)) == 0)
        #expect(lateRan.withLockedValue { $0 } == false)
    }
}
