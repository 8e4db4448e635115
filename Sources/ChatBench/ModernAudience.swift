import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The accounts and rooms of a run over the modern protocol (`/api/v1/ws`), made through the HTTP API before any
/// socket opens: one account per client, and the clients spread over `rooms` rooms in turn (client `i` in room
/// `i % rooms`). One room is the lobby, which every account belongs to; more are channels that their first client
/// creates and the others join. The server must let this many registrations through (`--registrations-per-hour`),
/// and a low `--bcrypt-cost` keeps it quick; the requests go to every node in turn, so that the nodes hash the
/// passwords together.
struct ModernAudience: Sendable, Codable {
    let tokens: [String]
    /// Each client's room id.
    let rooms: [String]

    /// How many requests are in flight at once, per node.
    private static let parallelRequestsPerNode = 8

    /// The accounts and rooms of `file` when it holds as many clients (written by an earlier run on the same
    /// database, so that a scenario of several runs registers its accounts once), else made now and written to
    /// `file` when given.
    static func prepare(
        on servers: [ServerURL], run: RunIdentity, clients: Int, rooms roomCount: Int, reusing file: String?,
        progress: ProgressLog
    ) async throws -> ModernAudience {
        if let file, let data = FileManager.default.contents(atPath: file) {
            let saved = try JSONDecoder().decode(ModernAudience.self, from: data)
            guard saved.tokens.count == clients, Set(saved.rooms).count == roomCount else {
                throw BenchError.setupFailed(
                    "\(file) holds \(saved.tokens.count) accounts in \(Set(saved.rooms).count) rooms, not \(clients) in \(roomCount)"
                )
            }
            progress.say("using the \(clients) accounts of \(file)")
            return saved
        }
        let audience = try await Self.prepare(
            on: servers, run: run, clients: clients, rooms: roomCount, progress: progress)
        if let file { try JSONEncoder().encode(audience).write(to: URL(fileURLWithPath: file)) }
        return audience
    }

    /// Registers the accounts and makes the rooms. The HTTP connections it used are closed when it returns: the
    /// server counts them against its `--max-connections`, which a run at the limit fills with WebSockets.
    private static func prepare(
        on servers: [ServerURL], run: RunIdentity, clients: Int, rooms roomCount: Int, progress: ProgressLog
    ) async throws -> ModernAudience {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let nodes = servers.map { HTTPAPI(base: "http://\($0.hostHeader)/api/v1", client: client) }
            let audience = try await Self.prepare(
                api: { nodes[$0 % nodes.count] }, parallel: Self.parallelRequestsPerNode * nodes.count, run: run,
                clients: clients, rooms: roomCount, progress: progress)
            try await client.shutdown()
            return audience
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// `api(i)`: the node the `i`-th request of a kind goes to.
    private static func prepare(
        api: @escaping @Sendable (Int) -> HTTPAPI, parallel: Int, run: RunIdentity, clients: Int,
        rooms roomCount: Int, progress: ProgressLog
    ) async throws -> ModernAudience {
        progress.say("registering \(clients) accounts")
        let tokens = try await Self.inParallel(0..<clients, atOnce: parallel) { index in
            let session = try await api(index).send(
                "POST", "/register",
                body: ["username": "b\(run.id)-\(index)", "password": "bench-password-\(run.id)"])
            guard let token = session["token"] as? String else {
                throw BenchError.setupFailed("no token in \(session)")
            }
            return token
        }
        guard roomCount > 1 else {
            return ModernAudience(tokens: tokens, rooms: Array(repeating: "lobby", count: clients))
        }
        progress.say("creating \(roomCount) rooms of \(clients / roomCount) members")
        let roomIDs = try await Self.inParallel(0..<roomCount, atOnce: parallel) { room in
            let summary = try await api(room).send(
                "POST", "/rooms", body: ["kind": "channel", "name": "bench \(run.id) \(room)"], token: tokens[room])
            guard let id = summary["id"] as? String else { throw BenchError.setupFailed("no room id in \(summary)") }
            return id
        }
        _ = try await Self.inParallel(roomCount..<clients, atOnce: parallel) { index in
            _ = try await api(index).send("POST", "/rooms/\(roomIDs[index % roomCount])/join", token: tokens[index])
            return true
        }
        return ModernAudience(tokens: tokens, rooms: (0..<clients).map { roomIDs[$0 % roomCount] })
    }

    /// `work` for every index, at most `atOnce` at once; the results in index order.
    private static func inParallel<Value: Sendable>(
        _ indices: Range<Int>, atOnce: Int, _ work: @escaping @Sendable (Int) async throws -> Value
    ) async throws -> [Value] {
        try await withThrowingTaskGroup(of: (Int, Value).self) { group in
            var results: [Int: Value] = [:]
            var next = indices.lowerBound
            while next < indices.upperBound || !group.isEmpty {
                while next < indices.upperBound, next - indices.lowerBound - results.count < atOnce {
                    let index = next
                    group.addTask { (index, try await work(index)) }
                    next += 1
                }
                if let (index, value) = try await group.next() { results[index] = value }
            }
            return indices.map { results[$0]! }
        }
    }
}

/// JSON requests to the server's HTTP API, for the run's set-up (AsyncHTTPClient rather than URLSession, so that
/// chat-bench links without libcurl, as the release archive's static binaries do).
private struct HTTPAPI: Sendable {
    let base: String
    let client: HTTPClient

    private static let timeout = TimeAmount.seconds(30)

    @discardableResult
    func send(_ method: String, _ path: String, body: [String: String]? = nil, token: String? = nil) async throws
        -> [String: Any]
    {
        var request = HTTPClientRequest(url: self.base + path)
        request.method = HTTPMethod(rawValue: method)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
        }
        let response = try await self.client.execute(request, timeout: Self.timeout)
        let data = Data(try await response.body.collect(upTo: 1 << 20).readableBytesView)
        guard (200..<300).contains(response.status.code) else {
            throw BenchError.setupFailed(
                "\(method) \(path) answered \(response.status.code): \(String(decoding: data, as: UTF8.self))")
        }
        guard !data.isEmpty else { return [:] }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }
}
