import Foundation
import NIOConcurrencyHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An executable of this package that `swift build` put beside the running test bundle.
public func builtExecutable(named name: String) -> URL? {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory.deleteLastPathComponent()
    }
    return nil
}

/// Runs a program to its end with `input` on its standard input (or none) and `environment` added to this
/// process's; returns its exit status and standard output (with standard error when `withStandardError`, else
/// standard error is discarded). A run that takes more than a minute is killed and throws.
public func runToEnd(
    _ executable: URL, arguments: [String], environment: [String: String] = [:], input: String? = nil,
    withStandardError: Bool = false
) async throws -> (status: Int32, output: String) {
    let child = try ChildProcess(
        executable, arguments: arguments, environment: environment, input: input != nil,
        standardError: withStandardError ? .mergedWithOutput : .discarded)
    let lines = Inbox<String>()
    readLines(from: child.output, into: lines)
    if let input, let handle = child.input {
        // (a program that exits without reading it is not an error here: its status tells)
        try? handle.write(contentsOf: Data(input.utf8))
        try? handle.close()
    }
    guard let status = await child.exit.wait() else {
        child.signal(SIGKILL)
        throw TestClientError("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) did not finish")
    }
    var output = ""
    while let line = await lines.next(timeout: .seconds(10)) { output += line + "\n" }
    return (status, output)
}

/// What becomes of a child's standard error.
enum ChildStandardError {
    case mergedWithOutput
    case discarded
}

/// A program started with `posix_spawn`, its output (and standard error, unless discarded) on a pipe and, when
/// asked for, its standard input on another; otherwise its standard input is `/dev/null`.
///
/// Not Foundation's `Process`: on Linux, in this toolchain, its `run()` crashes now and then reading
/// `/proc/self/fd` (swift-corelibs-foundation#5472), and it learns of a child's exit through a socket that a child
/// started at the same moment can inherit, so an exit can go unnoticed. Here every descriptor is close-on-exec
/// (and all but 0–2 are closed in the child), and the exit is learnt by `waitpid`.
final class ChildProcess: Sendable {
    let pid: pid_t
    let input: FileHandle?
    let output: FileHandle
    let exit: ExitStatus

    /// Writing to a child that has exited must be an error to handle, not SIGPIPE ending the tests.
    private static let pipeSignalIgnored: Void = {
        #if canImport(Glibc)
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
        #else
        _ = Darwin.signal(SIGPIPE, SIG_IGN)
        #endif
    }()

    init(
        _ executable: URL, arguments: [String], environment: [String: String], input: Bool,
        standardError: ChildStandardError
    ) throws {
        Self.pipeSignalIgnored
        var outputPipe: [Int32] = [-1, -1]
        var inputPipe: [Int32] = [-1, -1]
        guard Self.makePipe(&outputPipe) else { throw TestClientError("pipe failed: errno \(errno)") }
        guard !input || Self.makePipe(&inputPipe) else {
            outputPipe.forEach { close($0) }
            throw TestClientError("pipe failed: errno \(errno)")
        }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        let closeOthers = Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        let closeOthers: Int32 = 0
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input {
            posix_spawn_file_actions_adddup2(&actions, inputPipe[0], STDIN_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], STDOUT_FILENO)
        switch standardError {
        case .mergedWithOutput: posix_spawn_file_actions_adddup2(&actions, outputPipe[1], STDERR_FILENO)
        case .discarded: posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        }
        #if os(Linux)
        Self.closeEverythingElse(&actions)
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The spawning thread may block or ignore signals (dispatch's threads do); the child starts with none of
        // that, in a process group of its own, as Foundation starts it.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(
            &attributes,
            Int16(Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP) | closeOthers))

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let envp = merged.map { strdup("\($0)=\($1)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        close(outputPipe[1])
        if input { close(inputPipe[0]) }
        guard result == 0 else {
            close(outputPipe[0])
            if input { close(inputPipe[1]) }
            throw TestClientError("could not start \(executable.path): errno \(result)")
        }
        self.pid = pid
        self.output = FileHandle(fileDescriptor: outputPipe[0], closeOnDealloc: true)
        self.input = input ? FileHandle(fileDescriptor: inputPipe[1], closeOnDealloc: true) : nil
        self.exit = ExitStatus(pid: pid)
    }

    /// A pipe whose two ends close on exec (`pipe2` is GNU-only in Swift's view of glibc).
    private static func makePipe(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// Sends `signal` to the program.
    func signal(_ signal: Int32) {
        kill(self.pid, signal)
    }

    /// Waits for the program to exit and returns its status. A program still running after `limit` is killed (the
    /// status is then SIGKILL's number), so one that ignores what it was told fails its test instead of hanging it.
    func exitStatus(within limit: Duration) async -> Int32 {
        if let status = await self.exit.wait(limit: limit) { return status }
        self.signal(SIGKILL)
        return await self.exit.wait() ?? SIGKILL
    }

    /// Closes every descriptor from 3 up in the child, where glibc offers it (2.34 and later; the declaration is
    /// GNU-only, so it is looked up at run time).
    #if os(Linux)
    private static func closeEverythingElse(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }
    #endif
}

/// Pushes each line a child process writes into `lines`, from a dedicated thread with blocking reads (no run loop
/// and no dispatch source: both misbehave around process exit on Linux); finishes `lines` at end of file.
func readLines(from handle: FileHandle, into lines: Inbox<String>) {
    let reader = Thread {
        var partial = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            partial.append(chunk)
            while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                lines.push(String(decoding: partial[..<newline], as: UTF8.self))
                partial.removeSubrange(...newline)
            }
        }
        if !partial.isEmpty { lines.push(String(decoding: partial, as: UTF8.self)) }
        lines.finish()
    }
    reader.start()
}

/// A child's exit status, learnt by reaping it with `waitpid`.
final class ExitStatus: Sendable {
    private let pid: pid_t
    private let status = NIOLockedValueBox<Int32?>(nil)

    init(pid: pid_t) {
        self.pid = pid
    }

    /// The exit status (a signal's number for a child killed by one, as Foundation reports it), or `nil` if the
    /// child is still running after `limit`.
    func wait(limit: Duration = .seconds(60)) async -> Int32? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let status = self.reaped() { return status }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    /// Whether the program has exited (and is reaped): a pid no longer its own is never signalled.
    var hasExited: Bool { self.reaped() != nil }

    private func reaped() -> Int32? {
        self.status.withLockedValue { status in
            if status == nil {
                var raw: Int32 = 0
                if waitpid(self.pid, &raw, WNOHANG) == self.pid {
                    let signal = raw & 0x7f
                    status = signal == 0 ? (raw >> 8) & 0xff : signal
                }
            }
            return status
        }
    }
}
