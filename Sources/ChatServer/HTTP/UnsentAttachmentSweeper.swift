import ChatCore
import ChatUseCases
import Foundation
import Logging

/// Runs ``Attachments/forgetUnsent(now:)`` every ``interval`` of the server's clock, until cancelled.
struct UnsentAttachmentSweeper: Sendable {
    static let interval = Duration.seconds(3600)

    let attachments: Attachments
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
            let forgotten = try await self.attachments.forgetUnsent(now: now)
            if forgotten > 0 { self.logger.info("deleted \(forgotten) attachment files no message carries") }
        } catch {
            self.logger.warning("could not delete unsent attachments: \(error)")
        }
    }
}
