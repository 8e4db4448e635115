import ChatCore
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// `/echo` across nodes (PROTOCOL.md §4): each frame a client of this node sends is written to `echo_frames` and
/// its row announced with `NOTIFY swiftchat_echo` (`ORIGIN:ID`: a frame may hold megabytes, a notification at most
/// 8,000 bytes). Every other node reads the row and relays the bytes to its own clients, byte-identical, with the
/// frame's opcode.
///
/// One task writes this node's frames, in the order they arrived, so the other nodes receive them in that order; it
/// deletes rows older than ``retention`` as it goes. Another reads the other nodes' frames, in the order they were
/// announced. Like the relay itself, this is at most once: frames wait in memory up to ``maxQueuedBytes`` while the
/// database is slow, and beyond that, or while a node's listener reconnects, they are lost for the other nodes (this
/// node's clients have them already); announcements wait up to ``maxWaitingAnnouncements``.
public final class PostgresEchoRelay: EchoPeers {
    static let channel = "swiftchat_echo"
    /// How long a frame's row is kept for the nodes that read it.
    static let retention = Duration.seconds(60)
    /// What may wait to be written; two of `/echo`'s largest messages by default.
    let maxQueuedBytes: Int
    /// Other nodes' frames announced and not yet read.
    static let maxWaitingAnnouncements = 1_000
    /// How long reading one frame may take before it is given up.
    static let readDeadline = Duration.seconds(5)

    private struct Queue {
        var frames: [(ByteBuffer, Bool)] = []
        var bytes = 0
        var waiter: CheckedContinuation<Void, Never>?
        var dropped = 0
        var cancelled = false
    }

    private let origin = UUID()
    private let queue = NIOLockedValueBox(Queue())
    private let announcements: AsyncStream<Int64>
    private let announce: AsyncStream<Int64>.Continuation
    private let client: PostgresClient
    private let logger: Logger
    private let tasks = BackgroundTasks()

    /// Frames forwarded here go to the other nodes; theirs go to `audience`.
    public init(client: PostgresClient, audience: any EchoAudience, maxQueuedBytes: Int, logger: Logger) {
        self.client = client
        self.maxQueuedBytes = maxQueuedBytes
        self.logger = logger
        (self.announcements, self.announce) = AsyncStream.makeStream(
            of: Int64.self, bufferingPolicy: .bufferingOldest(Self.maxWaitingAnnouncements))
        self.tasks.run { await self.write() }
        self.tasks.run { await self.read(to: audience) }
    }

    public func forward(_ payload: ByteBuffer, kind: EchoFrameKind) {
        let waiter = self.queue.withLockedValue { queue -> CheckedContinuation<Void, Never>? in
            guard queue.bytes + payload.readableBytes <= self.maxQueuedBytes else {
                queue.dropped += 1
                return nil
            }
            queue.frames.append((payload, kind == .binary))
            queue.bytes += payload.readableBytes
            defer { queue.waiter = nil }
            return queue.waiter
        }
        waiter?.resume()
    }

    /// A frame announced by a node (`ORIGIN:ID`), to be read and relayed here unless this node wrote it (its clients
    /// have it already).
    func announced(_ text: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let origin = UUID(uuidString: String(parts[0])), origin != self.origin,
            let id = Int64(parts[1])
        else { return }
        if case .dropped = self.announce.yield(id) {
            self.logger.warning("an /echo frame of another node was not relayed here: this node is behind")
        }
    }

    /// Reads the announced frames one by one, in order, and relays each to this node's clients.
    private func read(to audience: any EchoAudience) async {
        for await id in self.announcements {
            do {
                let frames = try await Deadline.run(within: Self.readDeadline) {
                    let rows = try await self.client.query(
                        "SELECT binary_frame, payload FROM echo_frames WHERE id = \(id)", logger: self.logger)
                    var frames: [(Bool, ByteBuffer)] = []
                    for try await frame in rows.decode((Bool, ByteBuffer).self) { frames.append(frame) }
                    return frames
                }
                for (binary, payload) in frames { audience.deliverHere(payload, kind: binary ? .binary : .text) }
            } catch {
                if Task.isCancelled { break }
                self.logger.warning("could not read an /echo frame of another node: \(String(reflecting: error))")
            }
        }
    }

    public func close() async {
        await self.tasks.close()
    }

    /// Writes queued frames one by one, in order, until cancelled.
    private func write() async {
        var lastSweep = ContinuousClock.now
        while !Task.isCancelled {
            let next = await self.next()
            guard let (payload, binary) = next else { continue }
            do {
                try await self.client.query(
                    """
                    WITH frame AS (
                        INSERT INTO echo_frames (origin, binary_frame, payload)
                        VALUES (\(self.origin), \(binary), \(payload)) RETURNING id)
                    SELECT pg_notify(\(Self.channel), \(self.origin.uuidString + ":") || (SELECT id FROM frame))
                    """, logger: self.logger)
                if ContinuousClock.now - lastSweep > Self.retention {
                    lastSweep = ContinuousClock.now
                    try await self.client.query(
                        "DELETE FROM echo_frames WHERE created_at < now() - make_interval(secs => \(Self.retentionSeconds))",
                        logger: self.logger)
                }
            } catch {
                self.logger.warning(
                    "an /echo frame could not be sent to the other nodes: \(String(reflecting: error))")
            }
        }
    }

    private static var retentionSeconds: Double { Double(Self.retention.components.seconds) }

    /// The oldest queued frame, waiting for one; `nil` when cancelled.
    private func next() async -> (ByteBuffer, Bool)? {
        while !Task.isCancelled {
            let (frame, dropped) = self.queue.withLockedValue { queue -> ((ByteBuffer, Bool)?, Int) in
                defer { queue.dropped = 0 }
                guard !queue.frames.isEmpty else { return (nil, queue.dropped) }
                let frame = queue.frames.removeFirst()
                queue.bytes -= frame.0.readableBytes
                return (frame, queue.dropped)
            }
            if dropped > 0 {
                self.logger.warning("\(dropped) /echo frames were not sent to the other nodes: the database is behind")
            }
            if let frame { return frame }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = self.queue.withLockedValue { queue -> Bool in
                        if !queue.frames.isEmpty || queue.cancelled { return true }
                        queue.waiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            } onCancel: {
                self.queue.withLockedValue { queue in
                    queue.cancelled = true
                    defer { queue.waiter = nil }
                    return queue.waiter
                }?.resume()
            }
        }
        return nil
    }
}
