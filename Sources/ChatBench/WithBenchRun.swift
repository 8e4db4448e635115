import NIOCore
import NIOPosix

/// Runs `body` with a fresh ``BenchRun`` on its own single-threaded event loop, so the generator uses one
/// core; afterwards, also when `body` throws, closes every client and shuts the loop down.
func withBenchRun<Result>(
    identity: RunIdentity,
    slice: ClientSlice,
    senders: Int,
    rate: Double,
    textBytes: Int,
    rooms: [String]? = nil,
    progress: ProgressLog,
    _ body: (BenchRunHandle) async throws -> Result
) async throws -> Result {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let loop = group.next()
    let result: Swift.Result<Result, any Error>
    do {
        let bound = try await loop.submit {
            NIOLoopBound(
                BenchRun(
                    identity: identity, slice: slice, senders: senders, rate: rate, textBytes: textBytes,
                    rooms: rooms),
                eventLoop: loop)
        }.get()
        let handle = BenchRunHandle(loop: loop, bound: bound)
        let value = try await body(handle)
        progress.say("closing \(slice.count) connections")
        try await handle.closeAll()
        result = .success(value)
    } catch {
        result = .failure(error)
    }
    try await group.shutdownGracefully()
    return try result.get()
}
