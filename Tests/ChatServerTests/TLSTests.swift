import AsyncHTTPClient
import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Testing

extension TestServer {
    /// A server speaking TLS on both ports with certificates from a throwaway authority.
    static func withTLS(_ body: (TestServer, TestCertificates) async throws -> Void) async throws {
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let certificates = try TestCertificates.make(in: directory)
        try await withTestServer({
            $0.tlsCertificate = certificates.certificatePath
            $0.tlsKey = certificates.keyPath
            $0.tcpTLS = true
        }) { server in
            try await body(server, certificates)
        }
    }
}

/// `GET url` over TLS trusting `certificates`' authority only; the status, or the error of the handshake.
private func httpsStatus(_ url: String, trusting certificates: TestCertificates) async throws -> Int {
    let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: .init(tlsConfiguration: try certificates.clientConfiguration()))
    do {
        let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
        try await client.shutdown()
        return Int(response.status.code)
    } catch {
        try? await client.shutdown()
        throw error
    }
}

/// Registers over HTTPS (the test server's API client speaks plain HTTP).
private func httpsRegister(_ username: String, port: Int, trusting certificates: TestCertificates) async throws
    -> AuthSession
{
    let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: .init(tlsConfiguration: try certificates.clientConfiguration()))
    do {
        var request = HTTPClientRequest(url: "https://127.0.0.1:\(port)/api/v1/register")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(
            ByteBuffer(
                bytes: try JSONEncoder().encode(RegisterRequest(username: username, password: "correct horse battery")))
        )
        let response = try await client.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 16)
        try await client.shutdown()
        return try JSONDecoder().decode(AuthSession.self, from: Data(body.readableBytesView))
    } catch {
        try? await client.shutdown()
        throw error
    }
}

@Suite("TLS: HTTPS, WSS and TLS on the TCP port with --tls-cert and --tls-key; SIGHUP reloads (docs/OPERATIONS.md §4)")
struct TLSTests {
    @Test("every protocol speaks TLS with the configured certificate; a client that does not trust it gets nowhere")
    func everyProtocol() async throws {
        try await TestServer.withTLS { server, certificates in
            #expect(
                try await httpsStatus("https://127.0.0.1:\(server.httpPort)/healthz", trusting: certificates) == 200)
            let context = try certificates.clientContext()
            let chat = try await WebSocketTestClient.connect(
                host: "127.0.0.1", port: server.httpPort, path: "/chat", tls: context)
            let tcp = try await LineClient.connect(host: "127.0.0.1", port: server.tcpPort, tls: context)
            try await tcp.write("iam:Luke\n")
            _ = try await tcp.waitForLine("Luke has joined")
            try await tcp.write("msg:over TLS\n")
            _ = try await tcp.waitForLine("Luke:over TLS")
            while true {
                let text = try await chat.nextText()
                if text.contains("over TLS") { break }
            }
            // /echo relays over WSS; the modern socket signs in and resumes over WSS.
            let echoA = try await WebSocketTestClient.connect(
                host: "127.0.0.1", port: server.httpPort, path: "/echo/?id=a", tls: context)
            let echoB = try await WebSocketTestClient.connect(
                host: "127.0.0.1", port: server.httpPort, path: "/echo/?id=b", tls: context)
            try await echoA.send(text: "relayed over TLS")
            #expect(try await echoB.nextText() == "relayed over TLS")
            let ann = try await httpsRegister("ann", port: server.httpPort, trusting: certificates)
            let modern = try await WebSocketTestClient.connect(
                host: "127.0.0.1", port: server.httpPort, path: "/api/v1/ws?token=\(ann.token)", tls: context)
            _ = try await modern.next(.hello, as: HelloFrame.self)
            try await modern.send(.resume(ResumeRequest(rooms: ["lobby": 0])))
            _ = try await modern.next(.resumed, as: ResumedFrame.self)
            // Plain HTTP on the TLS port gets no HTTP answer; a client trusting another authority fails its handshake.
            let plain = try? await APIClient(baseURL: "http://127.0.0.1:\(server.httpPort)").get("/healthz")
            #expect(plain == nil)
            let stranger = try TestCertificates.make(in: TestServer.makeTemporaryDirectory(), name: "Someone else")
            await #expect(throws: (any Error).self) {
                try await httpsStatus("https://127.0.0.1:\(server.httpPort)/healthz", trusting: stranger)
            }
            for client in [chat, echoA, echoB, modern] { await client.close() }
            await tcp.close()
        }
    }

    @Test(
        "a reload serves the new certificate to new handshakes; open connections keep working; bad files change nothing"
    )
    func reload() async throws {
        try await TestServer.withTLS { server, first in
            let context = try first.clientContext()
            let open = try await WebSocketTestClient.connect(
                host: "127.0.0.1", port: server.httpPort, path: "/chat", tls: context)
            // Renewed by another authority, written over the same files.
            let scratch = TestServer.makeTemporaryDirectory()
            let second = try TestCertificates.make(in: scratch, name: "Renewed CA")
            try FileManager.default.removeItem(atPath: first.certificatePath)
            try FileManager.default.removeItem(atPath: first.keyPath)
            try FileManager.default.copyItem(atPath: second.certificatePath, toPath: first.certificatePath)
            try FileManager.default.copyItem(atPath: second.keyPath, toPath: first.keyPath)
            #expect(server.service.reloadCertificates())
            #expect(try await httpsStatus("https://127.0.0.1:\(server.httpPort)/healthz", trusting: second) == 200)
            await #expect(throws: (any Error).self) {
                try await httpsStatus("https://127.0.0.1:\(server.httpPort)/healthz", trusting: first)
            }
            // The connection opened before the reload still works.
            try await open.send(
                text: #"{"message":"still here","user":"Old","userID":"6F02D93E-AF6D-5DA3-9069-1024BCB20CAC"}"#)
            while true {
                let text = try await open.nextText()
                if text.contains("still here") { break }
            }
            // A key file that is not a key: the reload is refused and the renewed certificate stays.
            try "not a key".write(toFile: first.keyPath, atomically: true, encoding: .utf8)
            #expect(!server.service.reloadCertificates())
            #expect(try await httpsStatus("https://127.0.0.1:\(server.httpPort)/healthz", trusting: second) == 200)
            await open.close()
        }
    }

    @Test("a missing file, a key of another certificate, or half the settings stop start-up, naming the setting")
    func badSettings() async throws {
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let mine = try TestCertificates.make(in: directory)
        let other = try TestCertificates.make(in: TestServer.makeTemporaryDirectory(), name: "Other")
        for (certificate, key, setting) in [
            (directory + "/missing.pem", mine.keyPath, "--tls-cert"),
            (mine.certificatePath, directory + "/missing.pem", "--tls-key"),
            (mine.certificatePath, other.keyPath, "--tls-key"),
        ] {
            do {
                _ = try await TestServer.start {
                    $0.tlsCertificate = certificate
                    $0.tlsKey = key
                }
                Issue.record("\(certificate) with \(key) started")
            } catch {
                #expect(String(describing: error).hasPrefix(setting), "\(error)")
            }
        }
        for arguments in [["--tls-cert", mine.certificatePath], ["--tcp-tls", "true"]] {
            #expect(throws: ServerConfiguration.InvalidSettings.self) {
                try ServerConfiguration.resolve(arguments: arguments, environment: [:])
            }
        }
    }

    @Test("SIGHUP reloads the certificate of the running executable, which goes on serving")
    func sighup() async throws {
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try TestCertificates.make(in: directory)
        let server = try await ServerProcess.start(
            dataDirectory: directory + "/data",
            arguments: ["--tls-cert", first.certificatePath, "--tls-key", first.keyPath])
        #expect(try await httpsStatus("https://127.0.0.1:\(server.httpPort)/healthz", trusting: first) == 200)
        let second = try TestCertificates.make(in: TestServer.makeTemporaryDirectory(), name: "Renewed CA")
        try FileManager.default.removeItem(atPath: first.certificatePath)
        try FileManager.default.copyItem(atPath: second.certificatePath, toPath: first.certificatePath)
        try FileManager.default.removeItem(atPath: first.keyPath)
        try FileManager.default.copyItem(atPath: second.keyPath, toPath: first.keyPath)
        server.send(SIGHUP)
        try await server.waitForOutput("reloaded the TLS certificate")
        #expect(try await httpsStatus("https://127.0.0.1:\(server.httpPort)/healthz", trusting: second) == 200)
        #expect(await server.terminate() == 0)
    }
}
