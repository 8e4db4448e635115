import ChatCore
import ChatUseCases
import Foundation
import Logging

/// Runs ``Retention/sweep(now:)`` at start and then every ``interval`` of the server's clock, until cancelled. Every
/// node sweeps: a message two nodes both delete is deleted once (the second finds it deleted).
struct RetentionSweeper: Sendable {
    static let interval = Duration.seconds(3600)

    let retention: Retention
    let time: any TimeSource
    let logger: Logger

    func run() async {
        repeat {
            do {
                let deleted = try await self.retention.sweep(now: Date())
                if deleted > 0 {
                    self.logger.notice("deleted \(deleted) messages older than \(self.retention.days) days")
                }
            } catch {
                self.logger.warning("could not delete old messages: \(String(reflecting: error))")
            }
        } while (try? await self.time.sleep(for: Self.interval)) != nil
    }
}
