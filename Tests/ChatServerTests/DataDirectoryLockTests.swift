import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

@Suite("One server per data directory: a second one refuses to start (docs/OPERATIONS.md §8)")
struct DataDirectoryLockTests {
    @Test(
        "a second server on a directory in use stops with a message naming the setting and the holder; after a stop the directory is free"
    )
    func secondServerRefused() async throws {
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try await TestServer.start(dataDirectory: directory)
        let ann = try await first.register("ann")
        do {
            let second = try await TestServer.start(dataDirectory: directory)
            await second.stop()
            Issue.record("a second server started on \(directory)")
        } catch {
            let message = String(describing: error)
            #expect(
                message.hasPrefix("--data-dir \(directory): another chat-server (pid \(getpid())) is using it"),
                "\(message)")
        }
        // The first server did not notice.
        #expect(try await first.api.send(.GET, "/me", token: ann.token).status == 200)
        await first.stop()

        let again = try await TestServer.start(dataDirectory: directory)
        #expect(try await again.api.send(.GET, "/me", token: ann.token).status == 200)
        await again.stop()
    }

    @Test("the real executable exits with status 1 and says why; a server killed with SIGKILL leaves no lock behind")
    func processRefusedAndCrashFree() async throws {
        let directory = TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try await ServerProcess.start(dataDirectory: directory)
        let executable = try #require(ServerProcess.executableURL)
        let refused = try await runToEnd(
            executable, arguments: ["--port", "0", "--tcp-port", "0", "--data-dir", directory, "--metrics", "false"],
            withStandardError: true)
        #expect(refused.status == 1)
        #expect(refused.output.contains("--data-dir \(directory): another chat-server"), "\(refused.output)")

        await first.kill()
        // The kernel dropped the lock with the process: a new server starts and serves.
        let second = try await ServerProcess.start(dataDirectory: directory)
        let ready = try await APIClient(baseURL: "http://127.0.0.1:\(second.httpPort)").get("/readyz")
        #expect(ready.status == 200)
        await second.kill()
    }
}
