import NIOCore

/// Everything the clients share. Created on, and confined to, the generator's single event loop.
final class BenchRun {
    let recorder: DeliveryRecorder
    let tracker: ConnectionTracker
    let pacer: SendPacer
    let slice: ClientSlice
    /// The frame each client sends as soon as it is open: the modern protocol's `resume`, which starts delivery.
    private let openingFrame: ByteBuffer?

    /// `slice`: the clients this process opens; `rooms`: on the modern protocol, each client's room by global index.
    init(
        identity: RunIdentity, slice: ClientSlice, senders: Int, rate: Double, textBytes: Int, rooms: [String]?
    ) {
        self.slice = slice
        self.recorder = DeliveryRecorder(marker: identity.marker)
        self.tracker = ConnectionTracker(clients: slice.count)
        self.pacer = SendPacer(
            run: identity, own: slice.senders(of: senders), totalSenders: senders, rate: rate, textBytes: textBytes,
            rooms: rooms)
        self.openingFrame = rooms == nil ? nil : ByteBuffer(string: #"{"type":"resume","rooms":{}}"#)
    }

    /// Called once client `index` (of this process's slice) has upgraded: it is now tracked, and sends if it is a
    /// sender.
    func clientOpened(index: Int, handler: BenchClientHandler) {
        self.tracker.opened(index: index, handler: handler)
        self.pacer.register(index: self.slice.global(index), handler: handler)
    }

    func makeHandler(index: Int) -> BenchClientHandler {
        BenchClientHandler(index: index, events: self)
    }
}

extension BenchRun: ClientEvents {
    func opening(client: Int) -> ByteBuffer? { self.openingFrame }
    func received(_ payload: ByteBuffer, client: Int) { self.recorder.receive(payload) }
    func pinged() { self.tracker.pinged() }
    func serverClosed() { self.tracker.serverClosed() }
    func disconnected(client: Int) { self.tracker.disconnected(index: client) }
}

/// The async side's handle on a ``BenchRun``: every access hops onto the event loop.
struct BenchRunHandle: Sendable {
    let loop: any EventLoop
    let bound: NIOLoopBound<BenchRun>

    /// Runs `body` with the run on its event loop and returns what it returns.
    func read<Result: Sendable>(_ body: @escaping @Sendable (BenchRun) throws -> Result) async throws -> Result {
        let bound = self.bound
        return try await self.loop.submit { try body(bound.value) }.get()
    }

    /// Closes every client with a closing handshake and waits until their connections are gone.
    func closeAll() async throws {
        let closing = try await self.read { $0.tracker.closeAll() }
        try await EventLoopFuture.andAllComplete(closing, on: self.loop).get()
    }
}
