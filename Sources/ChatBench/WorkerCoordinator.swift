import Foundation

/// A worker's side of a spread run: each step writes this process's part to standard output and waits for the
/// parent's answer on standard input (``WorkerLine``).
struct WorkerCoordinator: RunCoordinator {
    private let answers = LineReader(.standardInput)

    func greeted(here: Int) async throws -> Int {
        guard case .greeted(let all) = try await self.ask(.greeted(here)) else { throw Self.outOfStep }
        return all
    }

    func window(proposed: RunWindow) async throws -> RunWindow {
        guard case .window(let window) = try await self.ask(.window(proposed)) else { throw Self.outOfStep }
        return window
    }

    func sentBySender(here: [Int]) async throws -> [Int] {
        guard case .sent(let all) = try await self.ask(.sent(here)) else { throw Self.outOfStep }
        return all
    }

    /// Writes the worker's last line.
    static func finish(_ line: WorkerLine) {
        FileHandle.standardOutput.write(line.encoded)
    }

    private func ask(_ line: WorkerLine) async throws -> WorkerLine {
        FileHandle.standardOutput.write(line.encoded)
        guard let answer = await self.answers.next() else {
            throw BenchError.spreadFailed("the parent process went away")
        }
        return try WorkerLine(line: answer)
    }

    private static let outOfStep = BenchError.spreadFailed("the parent answered out of step")
}
