import ChatPersistence
import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// One scrape of `/metrics`: each sample's value by its name with labels, as written (`name{label="v"}`).
struct MetricsScrape {
    let samples: [String: Double]
    let text: String

    static func take(_ server: TestServer) async throws -> MetricsScrape {
        let port = try #require(server.service.metricsPort)
        let reply = try await APIClient(baseURL: "http://127.0.0.1:\(port)").get("/metrics")
        #expect(reply.status == 200)
        #expect(reply.headers.first(name: "Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        let text = String(decoding: reply.body, as: UTF8.self)
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                continue
            }
            samples[String(line[..<space])] = value
        }
        return MetricsScrape(samples: samples, text: text)
    }

    /// The sum of every sample of `family` whose labels contain `matching` (all of them when it is empty).
    func total(_ family: String, _ matching: String = "") -> Double? {
        let found = self.samples.filter { key, _ in
            (key == family || key.hasPrefix(family + "{")) && (matching.isEmpty || key.contains(matching))
        }
        return found.isEmpty ? nil : found.values.reduce(0, +)
    }
}

@Suite("Prometheus metrics on their own listener (docs/OPERATIONS.md)")
struct MetricsTests {
    @Test("after real traffic on every protocol, each family exists and the ones the traffic touched moved")
    func familiesMove() async throws {
        try await withTestServer { server in
            let before = try await MetricsScrape.take(server)
            #expect(before.total("swiftchat_build_info") == 1)
            #expect((before.total("swiftchat_process_start_time_seconds") ?? 0) > 1_700_000_000)

            // Accounts: a registration, a failed login, a refused room creation.
            let ann = try await server.register("ann")
            #expect(
                try await server.api.send(
                    .POST, "/login", json: LoginRequest(username: "ann", password: "wrong password"), token: nil
                ).status == 401)
            var status = 0
            for index in 0..<11 {
                status = try await server.api.send(
                    .POST, "/rooms", json: CreateRoomRequest(kind: "group", name: "g\(index)"), token: ann.token
                ).status
            }
            #expect(status == 429)
            // The modern socket: a resume, sends with acks.
            let modern = try await server.modernClient(ann)
            _ = try await modern.next(.resumed, as: ResumedFrame.self)
            for index in 0..<3 {
                _ = try await modern.acked(
                    .send(SendRequest(room: "lobby", clientMsgID: "m\(index)", text: "hello \(index)")))
            }
            // The tutorial protocols.
            let chat = try await WebSocketTestClient.connect(host: server.host, port: server.httpPort, path: "/chat")
            let echo = try await WebSocketTestClient.connect(
                host: server.host, port: server.httpPort, path: "/echo/?id=luke")
            let tcp = try await server.joinedLineClient("Luke")
            // Search and an upload.
            #expect(try await server.api.send(.GET, "/search?q=hello", token: ann.token).status == 200)
            let upload = try await server.api.send(
                .POST, "/attachments?name=a.png", bytes: pngBytes(width: 2, height: 2), contentType: "image/png",
                token: ann.token)
            #expect(upload.status == 201)
            try await eventually("the event-loop watch ran (every second)") {
                (try await MetricsScrape.take(server).total("swiftchat_event_loop_lag_seconds_count") ?? 0) >= 1
            }

            let after = try await MetricsScrape.take(server)
            for transport in ["chat", "tcp", "echo", "ws"] {
                #expect(
                    after.total("swiftchat_connections", "protocol=\"\(transport)\"") == 1, "\(transport) connections")
            }
            #expect(after.total("swiftchat_registrations_total") == 1)
            #expect(after.total("swiftchat_login_failures_total") == 1)
            #expect(after.total("swiftchat_rate_limited_total", "kind=\"room_creation\"") == 1)
            // One per room: the lobby and 10 groups.
            #expect(after.total("swiftchat_resumes_total", "outcome=\"complete\"") == 11)
            #expect((after.total("swiftchat_events_committed_total") ?? 0) >= 3)
            #expect((after.total("swiftchat_commit_batch_size_count") ?? 0) >= 1)
            #expect((after.total("swiftchat_commit_duration_seconds_count") ?? 0) >= 1)
            #expect(after.total("swiftchat_ack_latency_seconds_count") == 3)
            #expect((after.total("swiftchat_sqlite_writer_wait_seconds_count") ?? 0) >= 1)
            #expect((after.total("swiftchat_room_queue_depth_count") ?? 0) >= 1)
            #expect(after.total("swiftchat_search_requests_total") == 1)
            #expect(after.total("swiftchat_search_duration_seconds_count") == 1)
            #expect(after.total("swiftchat_uploads_total") == 1)
            #expect((after.total("swiftchat_upload_bytes_total") ?? 0) > 0)
            #expect((after.total("swiftchat_event_loop_lag_seconds_count") ?? 0) >= 1)
            #expect(after.total("swiftchat_slow_consumer_evictions_total") == 0)
            #expect(
                after.total("swiftchat_http_requests_total", "route=\"/api/v1/rooms\",method=\"POST\",status=\"429\"")
                    == 1)
            #expect(after.total("swiftchat_http_requests_total", "route=\"/api/v1/register\"") == 1)
            // Never a label per user, room or address.
            #expect(!after.text.contains("ann") && !after.text.contains("lobby") && !after.text.contains("127.0.0.1"))

            await chat.close()
            await echo.close()
            await tcp.close()
            await modern.close()
            try await eventually {
                let now = try await MetricsScrape.take(server)
                return ["chat", "tcp", "echo", "ws"].allSatisfy {
                    now.total("swiftchat_connections", "protocol=\"\($0)\"") == 0
                }
            }
        }
    }

    @Test(
        "every family has its # HELP; the process_* families describe this process; durations reach the 15 s deadline")
    func helpAndProcessFamilies() async throws {
        try await withTestServer { server in
            // Other tests open and close sockets in this process all the time, so the count is checked against
            // descriptors this test holds through the scrape: the figure must include them.
            let held = (0..<500).map { _ in open("/dev/null", O_RDONLY) }
            defer { held.forEach { close($0) } }
            #expect(held.allSatisfy { $0 >= 0 })
            let scrape = try await MetricsScrape.take(server)
            let lines = scrape.text.split(separator: "\n")
            let typed = lines.filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ")[2] }
            let described = Set(lines.filter { $0.hasPrefix("# HELP ") }.map { $0.split(separator: " ")[2] })
            #expect(typed.count > 20)
            #expect(typed.filter { !described.contains($0) }.isEmpty, "families without # HELP")
            for family in [
                "process_cpu_seconds_total", "process_resident_memory_bytes", "process_virtual_memory_bytes",
                "process_open_fds", "process_max_fds", "process_start_time_seconds",
            ] {
                #expect((scrape.samples[family] ?? 0) > 0, "\(family)")
            }
            let openDescriptors = scrape.samples["process_open_fds"] ?? 0
            #expect(openDescriptors > Double(held.count), "this process's")
            var limit = rlimit()
            #expect(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
            #expect(scrape.samples["process_max_fds"] == Double(limit.rlim_cur))
            #expect(scrape.text.contains("swiftchat_commit_duration_seconds_bucket{le=\"15.0\"}"))
        }
    }

    @Test("on PostgreSQL, the pool's connections, its most and its failed connects are metrics; they follow an outage")
    func postgresPool() async throws {
        let database = try await TestServer.makePostgresDatabase()
        let server = try await TestServer.start { $0.databaseURL = database }
        let postgres = try await TestPostgres.shared()
        func sample(_ family: String) async throws -> Double {
            try await MetricsScrape.take(server).samples[family] ?? -1
        }
        do {
            let text = try await MetricsScrape.take(server).text
            for family in ["swiftchat_postgres_connections", "swiftchat_postgres_connections_max"] {
                #expect(text.contains("# HELP \(family) "), "\(family)")
            }
            #expect(try await sample("swiftchat_postgres_connections_max") == 20, "PostgresNIO's default")
            #expect(try await sample("swiftchat_postgres_connect_failures_total") == 0)
            // The node's listeners hold a connection each for as long as they listen.
            #expect(try await sample("swiftchat_postgres_connections") >= 2)
            try await eventually("as many as PostgreSQL counts") {
                let counted = try await Self.backends(of: database.database, on: postgres)
                return try await sample("swiftchat_postgres_connections") == Double(counted)
            }

            try await postgres.psql("ALTER DATABASE \"\(database.database)\" ALLOW_CONNECTIONS false")
            try await postgres.psql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database.database)'")
            try await eventually("the pool counts its connections closed, and fails to open new ones") {
                let failures = try await sample("swiftchat_postgres_connect_failures_total")
                let connections = try await sample("swiftchat_postgres_connections")
                return failures > 0 && connections <= 1
            }
            try await postgres.psql("ALTER DATABASE \"\(database.database)\" ALLOW_CONNECTIONS true")
            try await eventually("the pool connects again, the listeners among its connections") {
                try await sample("swiftchat_postgres_connections") >= 2
            }
        } catch {
            try? await postgres.psql("ALTER DATABASE \"\(database.database)\" ALLOW_CONNECTIONS true")
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// The connections PostgreSQL has open to `database`.
    private static func backends(of database: String, on postgres: TestPostgres) async throws -> Int {
        let count = try await postgres.psql("SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)'")
        return Int(count.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test("only GET /metrics is served there; --metrics false serves nothing")
    func listener() async throws {
        try await withTestServer { server in
            let port = try #require(server.service.metricsPort)
            #expect(port != server.httpPort)
            #expect(try await APIClient(baseURL: "http://127.0.0.1:\(port)").get("/").status == 404)
            #expect(
                try await APIClient(baseURL: "http://127.0.0.1:\(port)").send(
                    .POST, "/metrics", bytes: [], contentType: nil
                ).status == 404)
            #expect(try await APIClient(baseURL: "http://127.0.0.1:\(server.httpPort)").get("/metrics").status == 404)
        }
        try await withTestServer({ $0.metrics = false }) { server in
            #expect(server.service.metricsPort == nil)
        }
    }

    @Test("a metrics port already in use stops start-up with a message naming --metrics-port")
    func busyPort() async throws {
        try await withTestServer { first in
            let busy = try #require(first.service.metricsPort)
            do {
                let second = try await TestServer.start { $0.metricsPort = busy }
                await second.stop()
                Issue.record("a second server started on metrics port \(busy)")
            } catch {
                #expect(String(describing: error).hasPrefix("--metrics-port \(busy):"), "\(error)")
            }
        }
    }
}
