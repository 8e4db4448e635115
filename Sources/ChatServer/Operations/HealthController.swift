import ChatProtocol
import Foundation
import SQLKit
import Vapor

/// `/healthz` (the process answers), `/readyz` (it should get clients: the store answers, PostgreSQL's commit
/// listener is connected, and it is not draining)
/// and `/health`, kept as it was for existing monitors. None needs a token.
struct HealthController: Sendable {
    let readiness: Readiness
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

    func register(on routes: any RoutesBuilder) {
        routes.get(.constant(Paths.health)) { _ in "ok" }
        routes.get("healthz") { _ in "ok" }
        routes.get("readyz", use: self.ready)
    }

    @Sendable func ready(_ request: Request) async throws -> Response {
        var checks: [String: String] = [:]
        checks["draining"] = self.readiness.isDraining ? "yes" : "no"
        do {
            _ = try await self.database.raw("SELECT 1").all()
            checks["store"] = "ok"
        } catch {
            request.logger.warning("readiness: the store did not answer: \(error)")
            checks["store"] = "unavailable"
        }
        checks.merge(self.storageChecks()) { current, _ in current }
        let ready = !self.readiness.isDraining && checks.allSatisfy { $0.key == "draining" || $0.value == "ok" }
        let response = Response.json(
            Report(status: ready ? "ready" : "not ready", node: self.nodeName, checks: checks),
            status: ready ? .ok : .serviceUnavailable)
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return response
    }
}
