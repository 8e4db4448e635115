import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// HAProxy (Debian's `haproxy`) run in the foreground by a test, with the project's own `deploy/haproxy.cfg`
/// pointed at the test's nodes.
public final class HAProxyProcess: Sendable {
    private let child: ChildProcess
    private let directory: String
    public let output: Inbox<String>

    private init(child: ChildProcess, directory: String, output: Inbox<String>) {
        self.child = child
        self.directory = directory
        self.output = output
    }

    /// `deploy/haproxy.cfg` of the source tree.
    public static let shippedConfiguration = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("deploy/haproxy.cfg")

    /// Starts HAProxy on `configuration` (the text of a configuration file); checks it first, so a configuration
    /// HAProxy refuses fails with HAProxy's own message.
    public static func start(configuration: String) async throws -> HAProxyProcess {
        guard
            let haproxy = ["/usr/sbin/haproxy", "/usr/local/sbin/haproxy", "/usr/bin/haproxy"]
                .first(where: FileManager.default.isExecutableFile(atPath:))
        else {
            throw TestClientError("haproxy was not found: install Debian's haproxy (scripts/install-test-deps.sh does)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "swiftchat-haproxy-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = "\(directory)/haproxy.cfg"
        try configuration.write(toFile: file, atomically: true, encoding: .utf8)
        let executable = URL(fileURLWithPath: haproxy)
        let check = try await runToEnd(executable, arguments: ["-c", "-f", file], withStandardError: true)
        guard check.status == 0 else { throw TestClientError("haproxy -c refused the configuration: \(check.output)") }
        let child = try ChildProcess(
            executable, arguments: ["-db", "-f", file], environment: [:], input: false,
            standardError: .mergedWithOutput)
        let lines = Inbox<String>()
        readLines(from: child.output, into: lines)
        return HAProxyProcess(child: child, directory: directory, output: lines)
    }

    /// Stops HAProxy (SIGTERM: at once, every connection closed) and removes its configuration.
    public func stop() async {
        self.child.signal(SIGTERM)
        _ = await self.child.exitStatus(within: .seconds(10))
        try? FileManager.default.removeItem(atPath: self.directory)
    }
}

/// A TCP port no one listens on right now (the system's choice for port 0), for a program that cannot be told to
/// pick one itself. Another program could take it before it is used; tests that use it are quick to do so.
public func freeTCPPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw TestClientError("socket() failed") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    guard bound == 0 else { throw TestClientError("bind() failed") }
    let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    guard named == 0 else { throw TestClientError("getsockname() failed") }
    return Int(UInt16(bigEndian: address.sin_port))
}
