import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps a second server off a data directory that one is using: two processes appending to one SQLite file would
/// each number a room's messages from their own counter, and the order would break. The lock is an exclusive
/// `flock` on `chat.lock` in the data directory, held while the server runs and dropped by the kernel if the
/// process dies, so a crash never leaves a stale lock behind. The file holds the owner's process id, for the message.
final class DataDirectoryLock: Sendable {
    static let fileName = "chat.lock"

    private let descriptor: Int32

    /// Takes the lock, or throws ``DataDirectoryInUse`` when another server holds it.
    init(directory: String) throws {
        let path = URL(fileURLWithPath: directory).appendingPathComponent(Self.fileName).path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let owner = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(
                in: .whitespacesAndNewlines)
            close(descriptor)
            throw DataDirectoryInUse(directory: directory, lockFile: path, owner: owner.flatMap(Int32.init))
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = pid.withCString { pwrite(descriptor, $0, strlen($0), 0) }
        self.descriptor = descriptor
    }

    /// Lets another server have the directory (at shutdown, after the database is closed).
    func release() {
        _ = flock(self.descriptor, LOCK_UN)
        close(self.descriptor)
    }
}

/// Start-up stopped: another server uses the data directory.
struct DataDirectoryInUse: Error, CustomStringConvertible {
    let directory: String
    let lockFile: String
    let owner: Int32?

    var description: String {
        let who = self.owner.map { "another chat-server (pid \($0))" } ?? "another chat-server"
        return
            "--data-dir \(self.directory): \(who) is using it (it holds \(self.lockFile)). Two servers on one SQLite file would break the order of messages: stop the other one, or give this one its own --data-dir."
    }
}
