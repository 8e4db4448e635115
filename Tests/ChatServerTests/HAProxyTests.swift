import ChatPersistence
import ChatServer
import ChatTestSupport
import Foundation
import Testing

/// The shipped `deploy/haproxy.cfg` in front of two nodes on one PostgreSQL database (issue 12): clients through
/// the proxy carry on when a node stops, and each keeps its own address (issue 35).
@Suite("HAProxy in front of two nodes (deploy/haproxy.cfg)")
struct HAProxyTests {
    /// The shipped configuration with the example nodes' addresses replaced by the test's, and the proxy bound to
    /// free local ports.
    static func configuration(
        nodes: [TestServer], proxyHTTP: Int, proxyTCP: Int
    ) throws -> String {
        var text = try String(contentsOf: HAProxyProcess.shippedConfiguration, encoding: .utf8)
        for (index, node) in nodes.enumerated() {
            let example = "10.0.0.1\(index + 1)"
            text = text.replacingOccurrences(
                of: "\(example):8081 check port 8080", with: "127.0.0.1:\(node.tcpPort) check port \(node.httpPort)")
            text = text.replacingOccurrences(of: "\(example):8080", with: "127.0.0.1:\(node.httpPort)")
        }
        text = text.replacingOccurrences(of: "bind :80\n", with: "bind 127.0.0.1:\(proxyHTTP)\n")
        text = text.replacingOccurrences(of: "bind :8081\n", with: "bind 127.0.0.1:\(proxyTCP)\n")
        #expect(!text.contains("10.0.0."), "every example address was replaced")
        return text
    }

    static func joinedLineClient(_ name: String, port: Int) async throws -> LineClient {
        let client = try await LineClient.connect(host: "127.0.0.1", port: port)
        try await client.write("iam:\(name)\n")
        return client
    }

    /// A `/chat` client through the proxy. Like the clients people use, it tries again after a refusal: on a machine
    /// loaded by the whole suite the proxy may briefly count a node out (a 503 of its own), and that moment is not
    /// what this test is about.
    static func chatClient(port: Int) async throws -> WebSocketTestClient {
        var attempts = 0
        while true {
            do {
                return try await WebSocketTestClient.connect(host: "127.0.0.1", port: port, path: "/chat")
            } catch let error as TestClientError where error.description.contains(" 503 ") && attempts < 10 {
                attempts += 1
                try await Task.sleep(for: .milliseconds(500))
            }
        }
    }

    @Test("/chat and TCP clients through the proxy keep talking when one node stops")
    func oneNodeStops() async throws {
        let database = try await TestServer.makePostgresDatabase()
        let nodeA = try await TestServer.start {
            $0.databaseURL = database
            $0.announceJoins = false
            $0.proxyProtocol = true
        }
        let nodeB = try await TestServer.start {
            $0.databaseURL = database
            $0.announceJoins = false
            $0.proxyProtocol = true
        }
        let (proxyHTTP, proxyTCP) = (try freeTCPPort(), try freeTCPPort())
        let proxy = try await HAProxyProcess.start(
            configuration: try Self.configuration(nodes: [nodeA, nodeB], proxyHTTP: proxyHTTP, proxyTCP: proxyTCP))
        do {
            try await eventually("the proxy forwards") {
                (try? await APIClient(baseURL: "http://127.0.0.1:\(proxyHTTP)").get("/readyz").status) == 200
            }
            // Two clients of each protocol, spread over the nodes by the proxy.
            var tcp: [String: LineClient] = [:]
            for name in ["Luke", "Leia"] {
                tcp[name] = try await Self.joinedLineClient(name, port: proxyTCP)
            }
            var web: [String: WebSocketTestClient] = [:]
            for name in ["Ann", "Ben"] {
                web[name] = try await Self.chatClient(port: proxyHTTP)
            }
            try await tcp["Luke"]!.write("msg:before\n")
            for client in tcp.values { _ = try await client.waitForLine("Luke:before") }
            for client in web.values { #expect(try await client.nextJSON(TutorialMessage.self).message == "before") }
            await nodeA.stop()
            // Node A's clients were told to reconnect (an `err:` line, close code 1012) and do so through the proxy,
            // which now has node B only; node B's clients notice nothing.
            var reconnected = 0
            for (name, client) in tcp {
                // (Join lines of the other clients may come first.)
                guard
                    (try? await client.waitForLine("err:server is restarting; reconnect", timeout: .seconds(2))) != nil
                else { continue }
                tcp[name] = try await Self.joinedLineClient(name, port: proxyTCP)
                reconnected += 1
            }
            for (name, client) in web {
                guard let code = try? await client.nextCloseCode(timeout: .seconds(2)) else { continue }
                #expect(code == 1012)
                let again = try await Self.chatClient(port: proxyHTTP)
                #expect(
                    try await again.nextJSON(TutorialMessage.self).message == "before", "history, from the database")
                web[name] = again
                reconnected += 1
            }
            #expect(reconnected >= 1 && reconnected < 4, "the proxy spread the clients over both nodes")
            // One message from each protocol, the second sent once the first has arrived everywhere.
            try await tcp["Luke"]!.write("msg:after\n")
            for client in tcp.values { _ = try await client.waitForLine("Luke:after") }
            for client in web.values { #expect(try await client.nextJSON(TutorialMessage.self).message == "after") }
            try await web["Ann"]!.send(text: tutorialFrame("still here", user: "Ann", userID: UUID()))
            for client in tcp.values { _ = try await client.waitForLine("Ann:still here") }
            for client in web.values {
                #expect(try await client.nextJSON(TutorialMessage.self).message == "still here")
            }
        } catch {
            await proxy.stop()
            await nodeB.stop()
            // What HAProxy said (a server marked down, and why) is what explains a failure here.
            throw TestClientError("\(error); HAProxy printed: \(proxy.output.drain().joined(separator: "\n"))")
        }
        await proxy.stop()
        await nodeB.stop()
    }

    @Test(
        "through the proxy each client keeps its own address (PROXY v2): separate limits per client, a spoofed X-Forwarded-For changes nothing"
    )
    func clientsKeepTheirAddresses() async throws {
        // The proxy's own connections (four health checks at once, the test's /readyz) count under its address,
        // 127.0.0.1: the limit leaves them room, and the clients below come from other addresses.
        let node = try await TestServer.start {
            $0.proxyProtocol = true
            $0.registrationsPerHour = 1
            $0.maxConnectionsPerAddress = 6
        }
        let (proxyHTTP, proxyTCP) = (try freeTCPPort(), try freeTCPPort())
        // Both of the file's nodes are this one: what is counted per client is then counted in one place.
        let proxy = try await HAProxyProcess.start(
            configuration: try Self.configuration(nodes: [node, node], proxyHTTP: proxyHTTP, proxyTCP: proxyTCP))
        do {
            try await eventually("the proxy forwards") {
                (try? await APIClient(baseURL: "http://127.0.0.1:\(proxyHTTP)").get("/readyz").status) == 200
            }
            func register(_ name: String, from source: String, forwardedFor: String? = nil) async throws -> Int? {
                try await ProxyProtocolTests.register(
                    name, port: proxyHTTP, source: source, header: ProxyProtocolTests.noHeader,
                    forwardedFor: forwardedFor)
            }
            #expect(try await register("ann", from: "127.0.0.2") == 201)
            #expect(try await register("bob", from: "127.0.0.2", forwardedFor: "198.51.100.1") == 429)
            #expect(try await register("bob", from: "127.0.0.3") == 201, "another client, its own limit")

            // The TCP port: six connections from one client, a seventh refused, another client's accepted.
            var held: [LineClient] = []
            for index in 1...6 {
                let client = try await LineClient.connect(host: "127.0.0.1", port: proxyTCP, source: "127.0.0.4")
                try await client.write("iam:held\(index)\n")
                try await client.waitForLine("held\(index) has joined", timeout: .seconds(10))
                held.append(client)
            }
            let third = try await LineClient.connect(host: "127.0.0.1", port: proxyTCP, source: "127.0.0.4")
            #expect(try await third.nextLine(timeout: .seconds(10)).hasPrefix("err:"))
            let other = try await Self.joinedLineClient("other", port: proxyTCP)
            try await other.write("msg:hello\n")
            try await other.waitForLine("other:hello", timeout: .seconds(10))
            for client in held + [third, other] { await client.close() }
        } catch {
            await proxy.stop()
            await node.stop()
            throw TestClientError("\(error); HAProxy printed: \(proxy.output.drain().joined(separator: "\n"))")
        }
        await proxy.stop()
        await node.stop()
    }
}
