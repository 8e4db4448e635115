import ChatCore
import ChatProtocol
import Foundation
import SQLKit
import Vapor

/// `/healthz` (the process answers), `/readyz` (it should get clients: it is not draining, and the store answers and
/// PostgreSQL's listeners are connected, or have not for less than the grace of ``StoreOutage``) and `/health`, kept
/// as it was for existing monitors. None needs a token.
struct HealthController: Sendable {
    let readiness: Readiness
    let outage: StoreOutage
    let database: any SQLDatabase
    /// The storage's own checks (PostgreSQL's commit listener), `ok` or what is wrong.
    let storageChecks: @Sendable () -> [String: String]
    let nodeName: String

    /// The body of `/readyz`: the verdict, which node answered, and each check, so an operator sees why a node is
    /// out.
    struct Report: Content {
        var status: String
        var node: String
        var checks: [String: String]
    }

    /// How long the store's `SELECT 1` may take before it counts as unavailable.
    static let storeCheckDeadline = Duration.seconds(2)

    func register(on routes: any RoutesBuilder) {
        routes.get(.constant(Paths.health)) { _ in "ok" }
        routes.get("healthz") { _ in "ok" }
        routes.get("readyz", use: self.ready)
    }

    @Sendable func ready(_ request: Request) async throws -> Response {
        var checks: [String: String] = [:]
        checks["draining"] = self.readiness.isDraining ? "yes" : "no"
        do {
            // A pool whose database refuses connections waits for one: the check answers within its deadline, as a
            // balancer's check must (HAProxy's `timeout check 3s`).
            let database = self.database
            _ = try await Deadline.run(within: Self.storeCheckDeadline) { try await database.raw("SELECT 1").all() }
            checks["store"] = "ok"
        } catch {
            request.logger.warning("readiness: the store did not answer: \(error)")
            checks["store"] = "unavailable"
        }
        checks.merge(self.storageChecks()) { current, _ in current }
        let verdict: StoreOutage.Verdict =
            self.readiness.isDraining
            ? .notReady : self.outage.verdict(healthy: checks.allSatisfy { $0.key == "draining" || $0.value == "ok" })
        let response = Response.json(
            Report(status: verdict.rawValue, node: self.nodeName, checks: checks),
            status: verdict == .notReady ? .serviceUnavailable : .ok)
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return response
    }
}
