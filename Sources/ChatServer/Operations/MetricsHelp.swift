/// The `# HELP` line of every family `/metrics` serves (docs/OPERATIONS.md §9 lists the same). swift-metrics has no
/// place for a description, so ``ServerMetrics/exposition()`` writes these before each family's `# TYPE` line;
/// `MetricsTests` fails for a family without one.
enum MetricsHelp {
    static let families: [String: String] = [
        "swiftchat_connections": "Open connections, by protocol: chat (/chat), tcp, echo (/echo), ws (/api/v1/ws).",
        "swiftchat_events_committed_total": "Room events stored: messages, edits, deletes, reactions, pins, renames.",
        "swiftchat_commit_batch_size": "Events per store transaction.",
        "swiftchat_commit_duration_seconds": "How long one store transaction took.",
        "swiftchat_sqlite_writer_wait_seconds": "How long a write waited for the one SQLite write connection.",
        "swiftchat_ack_latency_seconds": "From a send (or edit, delete, react) read off the socket to its ack written.",
        "swiftchat_room_queue_depth": "Commands a room found waiting each time it woke.",
        "swiftchat_slow_consumer_evictions_total": "Connections dropped for not keeping up, by reason.",
        "swiftchat_resumes_total":
            "Room resumes on /api/v1/ws, by outcome (incomplete: the gap exceeded --max-replay).",
        "swiftchat_rate_limited_total": "Requests, messages and connections refused by a rate limit or cap, by kind.",
        "swiftchat_login_failures_total": "Logins with a wrong username or password.",
        "swiftchat_registrations_total": "Accounts created.",
        "swiftchat_uploads_total": "Attachments stored.",
        "swiftchat_upload_bytes_total": "Bytes of the attachments stored.",
        "swiftchat_search_requests_total": "Searches run.",
        "swiftchat_search_duration_seconds": "How long a search took.",
        "swiftchat_outbound_refused_total": "Requests of the server's own that the outbound guard refused, by reason.",
        "swiftchat_push_sent_total": "Web Push requests a push service accepted.",
        "swiftchat_push_failed_total": "Web Push requests that failed after every try.",
        "swiftchat_push_dropped_total": "Web Push requests dropped from a full queue.",
        "swiftchat_push_subscriptions_removed_total": "Web Push subscriptions removed because their service said gone.",
        "swiftchat_http_requests_total":
            "HTTP requests (WebSocket handshakes included), by route template, method, status.",
        "swiftchat_postgres_connections": "Connections of the node's PostgreSQL pool, open or being opened.",
        "swiftchat_postgres_connections_max": "The most connections the node's PostgreSQL pool opens.",
        "swiftchat_postgres_connect_failures_total": "Attempts of the node's PostgreSQL pool to connect that failed.",
        "swiftchat_event_loop_lag_seconds": "How late a task scheduled every second on an event loop ran.",
        "swiftchat_process_start_time_seconds": "When the process started, in seconds since 1970.",
        "swiftchat_build_info": "Always 1; the version is in the label.",
        "process_cpu_seconds_total": "User and system CPU time the process used, in seconds.",
        "process_resident_memory_bytes": "Resident memory of the process, in bytes.",
        "process_virtual_memory_bytes": "Virtual memory of the process, in bytes.",
        "process_open_fds": "File descriptors the process has open (connections among them).",
        "process_max_fds": "The process's limit of open file descriptors.",
        "process_start_time_seconds": "When the process started, in seconds since 1970.",
    ]

    /// `text` with a `# HELP` line before each `# TYPE` line of a family that has none yet.
    static func adding(to text: String) -> String {
        var lines: [Substring] = []
        var described: Set<Substring> = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# HELP ") {
                described.insert(line.dropFirst(7).prefix { $0 != " " })
            } else if line.hasPrefix("# TYPE ") {
                let family = line.dropFirst(7).prefix { $0 != " " }
                if !described.contains(family), let help = Self.families[String(family)] {
                    lines.append("# HELP \(family) \(help)")
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
