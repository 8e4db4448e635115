import ChatCore
import Foundation
import Logging

/// Deletes uploads that no message carries (never sent, or their messages were deleted) once they are older than
/// ``maxAge``, records and files: an upload that is never sent cannot fill the disk. Runs every ``interval``.
struct UnsentAttachmentSweeper: Sendable {
    /// How long an upload may wait to be sent (PROTOCOL.md §9.3).
    static let maxAge: TimeInterval = 24 * 3600
    static let interval = Duration.seconds(3600)

    let attachments: any AttachmentStore
    let files: any AttachmentBytes
    /// The server's clock: a sweep runs every ``interval`` of it.
    let time: any TimeSource
    let logger: Logger

    /// Sweeps until cancelled.
    func run() async {
        while (try? await self.time.sleep(for: Self.interval)) != nil {
            await self.sweep(now: Date())
        }
    }

    func sweep(now: Date) async {
        do {
            let unused = try await self.attachments.deleteUnsent(uploadedBefore: now.addingTimeInterval(-Self.maxAge))
            try await self.files.remove(unused)
            if !unused.isEmpty { self.logger.info("deleted \(unused.count) attachment files no message carries") }
        } catch {
            self.logger.warning("could not delete unsent attachments: \(error)")
        }
    }
}
