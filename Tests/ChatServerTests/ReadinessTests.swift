import ChatPersistence
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

@testable import ChatServer

/// What `/readyz` says while the database is out (issue 35): ready but `degraded` for `--ready-grace-seconds`, so a
/// shared PostgreSQL's restart does not take every node out of the balancer at once; then `not ready`; ready again
/// once the database answers.
@Suite("Readiness through a database outage")
struct ReadinessTests {
    @Test("the verdict: degraded within the grace from the first failing check, not ready past it, ready on recovery")
    func verdicts() {
        let outage = StoreOutage(grace: .seconds(15))
        let start = ContinuousClock.now
        #expect(outage.verdict(healthy: true, at: start) == .ready)
        #expect(outage.verdict(healthy: false, at: start + .seconds(1)) == .degraded)
        #expect(outage.verdict(healthy: false, at: start + .seconds(15)) == .degraded, "15 s after the first failure")
        #expect(outage.verdict(healthy: false, at: start + .seconds(16)) == .notReady)
        #expect(outage.verdict(healthy: true, at: start + .seconds(17)) == .ready)
        #expect(outage.verdict(healthy: false, at: start + .seconds(18)) == .degraded, "a new outage, a new grace")
        #expect(StoreOutage(grace: .zero).verdict(healthy: false) == .notReady, "0: at once")
    }

    @Test("PostgreSQL refusing every connection: /readyz is 200 degraded, then 503 after the grace, then 200 again")
    func postgresOutage() async throws {
        let database = try await TestServer.makePostgresDatabase()
        let name = database.database
        let server = try await TestServer.start {
            $0.databaseURL = database
            $0.readyGraceSeconds = 3
        }
        func readiness() async throws -> (status: Int, body: String) {
            let reply = try await server.raw(.GET, "/readyz")
            return (reply.status, String(decoding: reply.body, as: UTF8.self))
        }
        let postgres = try await TestPostgres.shared()
        do {
            #expect(try await readiness().status == 200)
            try await postgres.psql("ALTER DATABASE \"\(name)\" ALLOW_CONNECTIONS false")
            try await postgres.psql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)'")
            try await eventually("the node notices the outage", within: .seconds(10)) {
                let (status, body) = try await readiness()
                return status == 200 && body.contains("\"status\":\"degraded\"")
            }
            try await eventually("past the grace, out of the balancer", within: .seconds(15)) {
                try await readiness().status == 503
            }
            #expect(try await readiness().body.contains("\"status\":\"not ready\""))
        } catch {
            try? await postgres.psql("ALTER DATABASE \"\(name)\" ALLOW_CONNECTIONS true")
            await server.stop()
            throw error
        }
        try await postgres.psql("ALTER DATABASE \"\(name)\" ALLOW_CONNECTIONS true")
        try await eventually("the node reconnects", within: .seconds(30)) {
            let (status, body) = try await readiness()
            return status == 200 && body.contains("\"status\":\"ready\"")
        }
        await server.stop()
    }
}
