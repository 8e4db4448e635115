import ChatCore
import Foundation
import Logging
import PostgresNIO

extension PostgresClient {
    /// Sends `payload`, as JSON, to every node listening on `channel`, without waiting: what travels this way is
    /// ephemeral, and a failure only logs that `what` was lost. The send runs in `tasks`, which the storage closes
    /// before the client stops, so none is left to run on a stopped event loop.
    func notifyInBackground(
        _ channel: String, _ payload: some Encodable, in tasks: BackgroundTasks, logger: Logger, losing what: String
    ) {
        guard let data = try? JSONEncoder().encode(payload) else { return }
        let text = String(decoding: data, as: UTF8.self)
        tasks.run { [logger] in
            do {
                try await self.query("SELECT pg_notify(\(channel), \(text))", logger: logger)
            } catch {
                logger.warning("could not send \(what) to other nodes: \(String(reflecting: error))")
            }
        }
    }
}
