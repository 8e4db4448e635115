import AsyncHTTPClient
import ChatCore
import ChatServer
import ChatTestSupport
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing

/// The one guarded client of every outbound request (SECURITY.md §8): no URL a user gives reaches an internal
/// address, however it is written, resolved or redirected, unless `--outbound-allow` names it; real listeners on
/// loopback see whether anything got through.
@Suite("Outbound requests: no way to an internal address")
struct OutboundGuardTests {
    /// Names as a test's DNS would answer them.
    struct Names: HostResolving {
        let table: [String: [[UInt8]]]

        func addresses(of host: String) async throws -> [[UInt8]] {
            guard let addresses = self.table[host] else { throw TestClientError("no such name: \(host)") }
            return addresses
        }
    }

    static func client(allowing allowed: [String] = [], names: [String: [[UInt8]]] = [:]) -> GuardedHTTPClient {
        GuardedHTTPClient(
            policy: OutboundPolicy(allowed: allowed.compactMap(AddressRange.init)), resolver: Names(table: names),
            eventLoops: MultiThreadedEventLoopGroup.singleton, logger: Logger(label: "outbound-test"))
    }

    static func get(_ url: String, with client: GuardedHTTPClient, redirects: Int = 3) async throws
        -> GuardedHTTPClient.Response
    {
        try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(5), maxRedirects: redirects)
    }

    @Test("without the allowlist, every internal address is refused before a connection, however it is written")
    func matrix() async throws {
        let listener = try await PushReceiver.start()
        let port = listener.port
        let guarded = Self.client(names: [
            "internal.example": [[10, 0, 0, 5]], "loopback.example": [[127, 0, 0, 1]],
            "mixed.example": [[93, 184, 216, 34], [192, 168, 0, 7]],
        ])
        let refused: [(String, GuardedHTTPClient.Refusal)] = [
            ("http://127.0.0.1:\(port)/", .address),
            ("https://127.0.0.1:\(port)/", .address),
            ("https://[::1]:\(port)/", .address),
            ("https://[::ffff:127.0.0.1]:\(port)/", .address),
            ("https://0.0.0.0:\(port)/", .address),
            ("https://localhost:\(port)/", .address),
            ("https://10.1.2.3/", .address),
            ("https://172.16.0.1/", .address),
            ("https://192.168.1.1/", .address),
            ("https://100.64.0.1/", .address),
            ("https://169.254.169.254/latest/meta-data/", .address),
            ("https://[fd00::1]/", .address),
            ("https://[64:ff9b::a00:1]/", .address),
            ("https://internal.example/", .address),
            ("https://loopback.example:\(port)/", .address),
            ("https://mixed.example/", .address),
            ("https://unknown.example/", .unresolved),
            ("file:///etc/passwd", .scheme),
            ("gopher://127.0.0.1:\(port)/", .scheme),
            ("ftp://example.org/", .scheme),
            ("not a url", .scheme),
        ]
        for (url, reason) in refused {
            await #expect(throws: reason, "\(url)") { try await Self.get(url, with: guarded) }
        }
        #expect(listener.connections == 0)
        await listener.stop()
    }

    @Test(
        "an allowed address is reached, a name at the address it was checked for; a redirect is checked like the first request"
    )
    func allowedAndRedirects() async throws {
        let first = try await PushReceiver.start()
        let elsewhere = try await PushReceiver.start(host: "127.0.0.2")
        let guarded = Self.client(allowing: ["127.0.0.1/32"], names: ["hooks.example": [[127, 0, 0, 1]]])
        // A name is connected to at the address it was checked for, and asked for by its name.
        let named = try await Self.get("http://hooks.example:\(first.port)/named", with: guarded)
        #expect(named.status == .created)
        let request = try #require(await first.requests.next())
        #expect(request.path == "/named" && request.headers.first(name: "Host") == "hooks.example:\(first.port)")
        // A redirect within what is allowed is followed...
        first.script([.redirect("/moved")])
        let moved = try await Self.get("http://127.0.0.1:\(first.port)/old", with: guarded)
        #expect(moved.status == .created && moved.url.path == "/moved")
        // ...one to an address that is not is refused, and its target sees nothing.
        first.script([.redirect("http://127.0.0.2:\(elsewhere.port)/internal")])
        await #expect(throws: GuardedHTTPClient.Refusal.address) {
            try await Self.get("http://127.0.0.1:\(first.port)/go", with: guarded)
        }
        #expect(elsewhere.connections == 0)
        // At most three hops.
        first.script(Array(repeating: .redirect("/again"), count: 4))
        await #expect(throws: GuardedHTTPClient.Refusal.redirects) {
            try await Self.get("http://127.0.0.1:\(first.port)/loop", with: guarded)
        }
        // Plain http goes only to allowed addresses, even by a name that resolves to a public one.
        let public_ = Self.client(names: ["public.example": [[93, 184, 216, 34]]])
        await #expect(throws: GuardedHTTPClient.Refusal.address) {
            try await Self.get("http://public.example/", with: public_)
        }
        await first.stop()
        await elsewhere.stop()
    }
}
