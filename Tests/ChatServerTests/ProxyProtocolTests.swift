import ChatCore
import ChatTestSupport
import Foundation
import NIOCore
import Testing

@testable import ChatServer

/// Behind a proxy (issue 35): the PROXY protocol header (v1 and v2) names each connection's client for the
/// per-address limits, and `X-Forwarded-For` counts only from a trusted proxy. The clients here are raw sockets
/// that write what HAProxy would; `HAProxyTests` runs the real proxy.
@Suite("The client behind a proxy: PROXY protocol v1 and v2, trusted X-Forwarded-For")
struct ProxyProtocolTests {
    static func v1(_ client: String) -> String {
        let family = client.contains(":") ? "TCP6" : "TCP4"
        let proxy = client.contains(":") ? "::1" : "127.0.0.1"
        return "PROXY \(family) \(client) \(proxy) 40000 8080\r\n"
    }

    /// A v2 `PROXY` header over TCP and IPv4 from `client`, with one TLV after the addresses as HAProxy may send.
    static func v2(_ client: [UInt8]) -> [UInt8] {
        let addresses = client + [127, 0, 0, 1] + [0x9C, 0x40, 0x1F, 0x90]
        let tlv: [UInt8] = [0x04, 0x00, 0x01, 0x00]  // PP2_TYPE_NOOP, one byte
        let length = addresses.count + tlv.count
        return ProxyHeader.v2Signature + [0x21, 0x11, UInt8(length >> 8), UInt8(length & 0xFF)] + addresses + tlv
    }

    static let noHeader: [UInt8] = []

    /// A registration over a raw connection to `port` (a server's or a proxy's), from the local address `source`:
    /// the status of its answer, or `nil` when the server closed without one.
    static func register(
        _ name: String, port: Int, source: String? = nil, header: [UInt8], forwardedFor: String? = nil
    ) async throws -> Int? {
        let client = try await LineClient.connect(host: "127.0.0.1", port: port, source: source)
        let body = #"{"username":"\#(name)","password":"correct horse"}"#
        let forwarded = forwardedFor.map { "X-Forwarded-For: \($0)\r\n" } ?? ""
        let request =
            "POST /api/v1/register HTTP/1.1\r\nHost: chat\r\nContent-Type: application/json\r\n\(forwarded)"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        try await client.write(bytes: header + Array(request.utf8))
        defer { Task { await client.close() } }
        guard let status = await client.lines.next(timeout: .seconds(10)) else { return nil }
        return Int(status.split(separator: " ").dropFirst().first ?? "")
    }

    @Test("headers of both versions parse; partial ones wait; anything else is refused")
    func parsing() {
        func parse(_ bytes: [UInt8]) -> ProxyHeader { ProxyHeader.parse(ByteBuffer(bytes: bytes).readableBytesView) }
        let v1 = Array(Self.v1("203.0.113.7").utf8)
        #expect(parse(v1 + Array("GET".utf8)) == .header(source: "203.0.113.7", length: v1.count))
        let v1Six = Array(Self.v1("2001:db8::7").utf8)
        #expect(parse(v1Six) == .header(source: "2001:db8::7", length: v1Six.count))
        #expect(parse(Array("PROXY UNKNOWN\r\n".utf8)) == .header(source: nil, length: 15))
        #expect(parse(Array(v1.prefix(20))) == .incomplete)
        #expect(parse(Array("PRO".utf8)) == .incomplete)
        let v2 = Self.v2([198, 51, 100, 4])
        #expect(parse(v2 + [0x16, 0x03]) == .header(source: "198.51.100.4", length: v2.count))
        #expect(parse(Array(v2.prefix(15))) == .incomplete)
        #expect(parse(Array(v2.prefix(v2.count - 1))) == .incomplete)
        let local = ProxyHeader.v2Signature + [0x20, 0x00, 0x00, 0x00]
        #expect(parse(local) == .header(source: nil, length: 16), "LOCAL: the proxy's own health check")
        for refused in [
            Array("GET / HTTP/1.1\r\n".utf8), Array("PROXY TCP4 nowhere 127.0.0.1 1 2\r\n".utf8),
            Array("PROXY TCP4 203.0.113.7 127.0.0.1 1 2\n".utf8), Array("PROXY TCP6 203.0.113.7 ::1 1 2\r\n".utf8),
            Array(("PROXY TCP4 " + String(repeating: "1", count: 100)).utf8),
            ProxyHeader.v2Signature + [0x31, 0x11, 0x00, 0x0C],
            ProxyHeader.v2Signature + [0x21, 0x11, 0x00, 0x04, 1, 2, 3, 4],
            ProxyHeader.v2Signature + [0x21, 0x11, 0xFF, 0xFF],
        ] {
            guard case .invalid = parse(refused) else {
                Issue.record("accepted \(String(decoding: refused, as: UTF8.self))")
                continue
            }
        }
    }

    @Test(
        "with --proxy-protocol, each header's client has its own limits; a connection without one is closed unanswered"
    )
    func limitsPerProxiedClient() async throws {
        try await withTestServer({
            $0.proxyProtocol = true
            $0.registrationsPerHour = 1
            $0.maxConnectionsPerAddress = 2
        }) { server in
            let first = Array(Self.v1("203.0.113.7").utf8)
            #expect(try await Self.register("ann", port: server.httpPort, header: first) == 201)
            #expect(
                try await Self.register("bob", port: server.httpPort, header: first) == 429, "one account per hour each"
            )
            #expect(try await Self.register("bob", port: server.httpPort, header: Self.v2([198, 51, 100, 4])) == 201)
            #expect(
                try await Self.register("cat", port: server.httpPort, header: Array(Self.v1("2001:db8::7").utf8)) == 201
            )
            // From another address than the node's own (127.0.0.2: this machine's own connections need no header).
            #expect(
                try await Self.register("dan", port: server.httpPort, source: "127.0.0.2", header: Self.noHeader)
                    == nil,
                "no header: closed")
            #expect(
                try await Self.register(
                    "dan", port: server.httpPort, source: "127.0.0.2", header: Array("PROXY nonsense\r\n".utf8)) == nil)

            // The TCP port too: two connections of one client, a third refused, another client's accepted.
            var held: [LineClient] = []
            for index in 1...2 {
                let client = try await LineClient.connect(host: "127.0.0.1", port: server.tcpPort)
                try await client.write(Self.v1("203.0.113.9") + "iam:held\(index)\n")
                _ = try await client.nextLine(timeout: .seconds(10))
                held.append(client)
            }
            let third = try await LineClient.connect(host: "127.0.0.1", port: server.tcpPort)
            try await third.write(Self.v1("203.0.113.9") + "iam:third\n")
            #expect(try await third.nextLine(timeout: .seconds(10)).hasPrefix("err:"))
            let other = try await LineClient.connect(host: "127.0.0.1", port: server.tcpPort)
            try await other.write(Self.v1("203.0.113.10") + "iam:other\nmsg:hello\n")
            try await other.waitForLine("other:hello", timeout: .seconds(10))
            let bare = try await LineClient.connect(host: "127.0.0.1", port: server.tcpPort, source: "127.0.0.2")
            try await bare.write("iam:bare\n")
            try await eventually("a connection without a header is closed") { bare.isClosedByServer }
            for client in held + [third, other, bare] { await client.close() }
        }
    }

    @Test(
        "with --proxy-protocol, this machine's own connections to the node need no header: the demo bot answers, a local client counts as itself"
    )
    func thisMachineNeedsNoHeader() async throws {
        try await withTestServer({
            $0.proxyProtocol = true
            $0.demoBot = true
        }) { server in
            // The test's clients connect from 127.0.0.1 to the node on 127.0.0.1, as the bot does.
            try await LiveStateTests.expectBotAnswers(on: server, as: "ann")
            #expect(try await Self.register("bob", port: server.httpPort, header: Self.noHeader) == 201)
            let proxied = Array(Self.v1("203.0.113.7").utf8)
            #expect(
                try await Self.register("cat", port: server.httpPort, header: proxied) == 201, "a header still counts")
        }
        let local = try SocketAddress(ipAddress: "127.0.0.1", port: 8080)
        #expect(
            ProxyHeaderReader.isFromThisMachine(peer: try SocketAddress(ipAddress: "127.0.0.1", port: 5), local: local))
        #expect(
            ProxyHeaderReader.isFromThisMachine(
                peer: try SocketAddress(ipAddress: "127.0.0.1", port: 5),
                local: try SocketAddress(ipAddress: "127.0.0.11", port: 8080)),
            "a node on another loopback address: the kernel connects from 127.0.0.1")
        #expect(
            ProxyHeaderReader.isFromThisMachine(
                peer: try SocketAddress(ipAddress: "10.0.0.11", port: 5),
                local: try SocketAddress(ipAddress: "10.0.0.11", port: 8080)))
        #expect(
            !ProxyHeaderReader.isFromThisMachine(peer: try SocketAddress(ipAddress: "127.0.0.2", port: 5), local: local)
        )
        #expect(
            !ProxyHeaderReader.isFromThisMachine(
                peer: try SocketAddress(ipAddress: "10.0.0.5", port: 5),
                local: try SocketAddress(ipAddress: "10.0.0.11", port: 8080)),
            "HAProxy on its own machine")
    }

    @Test("X-Forwarded-For names the client only when a trusted proxy sends it: the right-most untrusted address")
    func trustedForwardedFor() async throws {
        let trustingLoopback: (inout ServerConfiguration) -> Void = {
            $0.registrationsPerHour = 1
            $0.trustedProxies = ["127.0.0.1", "10.0.0.0/8"].compactMap(AddressRange.init)
        }
        let trusted = try await withTestServer(trustingLoopback) { server in
            [
                try await Self.register(
                    "ann", port: server.httpPort, header: Self.noHeader, forwardedFor: "192.0.2.50"),
                try await Self.register(
                    "bob", port: server.httpPort, header: Self.noHeader, forwardedFor: "192.0.2.50"),
                // The client's own claim (left) does not count; the proxies' hops (10.x, trusted) are skipped.
                try await Self.register(
                    "bob", port: server.httpPort, header: Self.noHeader,
                    forwardedFor: "192.0.2.50, 192.0.2.51, 10.1.2.3"),
                try await Self.register(
                    "cat", port: server.httpPort, header: Self.noHeader, forwardedFor: "192.0.2.51"),
            ]
        }
        #expect(trusted == [201, 429, 201, 429])
        let trustingOthers: (inout ServerConfiguration) -> Void = {
            $0.registrationsPerHour = 1
            $0.trustedProxies = ["10.0.0.0/8"].compactMap(AddressRange.init)
        }
        let untrusted = try await withTestServer(trustingOthers) { server in
            [
                try await Self.register(
                    "ann", port: server.httpPort, header: Self.noHeader, forwardedFor: "192.0.2.50"),
                try await Self.register(
                    "bob", port: server.httpPort, header: Self.noHeader, forwardedFor: "192.0.2.99"),
            ]
        }
        #expect(untrusted == [201, 429], "from an untrusted peer the header changes nothing")
    }
}
