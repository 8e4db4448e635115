import NIOCore

/// An event loop as a task's preferred executor, so that a task which lives on one loop stays there.
///
/// A resumed continuation is enqueued on the task's preferred executor, which by default is Swift's global pool:
/// a room's task, parked on a continuation isolated to the room, woke up on a pool thread and only then hopped back
/// to the room's event loop, which cost two thread wake-ups per message (measured in docs/BENCHMARKS.md, "Where the
/// time goes"). With this preference the resumed task goes straight onto the loop's queue.
///
/// Every job runs isolated to the loop as a serial executor, as NIO runs the jobs of actors whose executor is the
/// loop: the loop runs one job at a time on its one thread, so a job it runs holds the loop's isolation, and an
/// actor on the same loop is entered without another hop.
public final class EventLoopTaskExecutor: TaskExecutor {
    private let eventLoop: any EventLoop

    public init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let eventLoop = self.eventLoop
        eventLoop.execute {
            job.runSynchronously(
                isolatedTo: eventLoop.executor.asUnownedSerialExecutor(), taskExecutor: self.asUnownedTaskExecutor())
        }
    }
}
