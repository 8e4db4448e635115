import ChatServer
import ChatTestSupport
import NIOCore

/// A bare HTTP/1.1 GET over a TCP socket; returns the response head and whatever body arrived.
func httpGet(host: String, port: Int, path: String) async throws -> String {
    let client = try await LineClient.connect(host: host, port: port)
    try await client.write("GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
    var lines: [String] = []
    while let line = await client.lines.next(timeout: TestDeadline.reply) {
        lines.append(line)
    }
    await client.close()
    return lines.joined(separator: "\n")
}
