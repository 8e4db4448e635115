/// Why a run stopped; the description is what the user reads before the tool exits non-zero.
enum BenchError: Error, CustomStringConvertible {
    case invalidURL(String)
    case connectFailed(String)
    case upgradeTimeout(upgraded: Int, total: Int)
    case procUnavailable(path: String)
    case setupFailed(String)
    case spreadFailed(String)
    case stormFailed(String)

    var description: String {
        switch self {
        case .invalidURL(let text):
            "\(text) is not a ws:// URL with a host (wss:// is not supported)."
        case .connectFailed(let reason):
            "Could not open the WebSocket clients: \(reason)."
        case .upgradeTimeout(let upgraded, let total):
            "Only \(upgraded) of \(total) clients completed the WebSocket upgrade in time; "
                + "the server may be overloaded."
        case .procUnavailable(let path):
            "Cannot read \(path): is --server-pid right, and is this Linux?"
        case .setupFailed(let reason):
            "Could not set up the modern protocol's accounts and rooms: \(reason)."
        case .spreadFailed(let reason):
            "The run over several processes stopped: \(reason)."
        case .stormFailed(let reason):
            "The reconnect storm stopped: \(reason)."
        }
    }
}
