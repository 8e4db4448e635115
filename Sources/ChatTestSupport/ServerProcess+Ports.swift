/// Restarting the real executable on the address clients already know.
extension ServerProcess {
    /// Starts `chat-server` on fixed ports (a later flag overrides the `--port 0` that
    /// ``start(dataDirectory:arguments:)`` passes first). After ``terminate()``, this on the old ports and data
    /// directory is what a restart looks like to a connected client. A child process also keeps a crash during shutdown
    /// out of the test process.
    public static func start(dataDirectory: String, httpPort: Int, tcpPort: Int, arguments: [String] = []) async throws
        -> ServerProcess
    {
        try await self.start(
            dataDirectory: dataDirectory, arguments: ["--port", "\(httpPort)", "--tcp-port", "\(tcpPort)"] + arguments)
    }
}
