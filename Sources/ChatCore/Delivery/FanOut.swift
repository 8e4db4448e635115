import NIOCore

/// A room's members, grouped by event loop and wire format, so that delivering a batch of events costs one
/// render per format and one task per event loop, whatever the number of members.
///
/// Owned by the room actor: only the sink dictionaries captured by a delivery task leave it, as immutable
/// copies.
struct FanOut {
    private struct GroupKey: Hashable {
        let loop: ObjectIdentifier
        let renderer: ObjectIdentifier
    }

    private struct Group {
        let loop: any EventLoop
        let renderer: any EventRenderer
        var sinks: [ObjectIdentifier: any EventSink] = [:]
    }

    private var groups: [GroupKey: Group] = [:]

    private(set) var count = 0

    mutating func insert(_ sink: any EventSink) {
        let key = Self.key(for: sink)
        if self.groups[key, default: Group(loop: sink.eventLoop, renderer: sink.renderer)]
            .sinks.updateValue(sink, forKey: ObjectIdentifier(sink)) == nil
        {
            self.count += 1
        }
    }

    /// Removes a sink; `false` when it was not a member.
    @discardableResult
    mutating func remove(_ sink: any EventSink) -> Bool {
        let key = Self.key(for: sink)
        guard self.groups[key]?.sinks.removeValue(forKey: ObjectIdentifier(sink)) != nil else { return false }
        if self.groups[key]?.sinks.isEmpty == true {
            self.groups[key] = nil
        }
        self.count -= 1
        return true
    }

    func contains(_ sink: any EventSink) -> Bool {
        self.groups[Self.key(for: sink)]?.sinks[ObjectIdentifier(sink)] != nil
    }

    /// Renders the events once per format and writes them, in order, to every member.
    func deliver(_ events: [RoomEvent]) {
        var rendered: [ObjectIdentifier: [ByteBuffer]] = [:]
        for group in self.groups.values {
            let rendererID = ObjectIdentifier(group.renderer)
            let payloads =
                rendered[rendererID]
                ?? {
                    let payloads = events.compactMap(group.renderer.render)
                    rendered[rendererID] = payloads
                    return payloads
                }()
            guard !payloads.isEmpty else { continue }
            Self.write(payloads, to: group.sinks, on: group.loop)
        }
    }

    /// Writes payloads to sinks that all live on `loop`, flushing each sink once: at once when the caller is
    /// on that loop (the room's own), else as one task on it.
    static func write(_ payloads: [ByteBuffer], to sinks: [ObjectIdentifier: any EventSink], on loop: any EventLoop) {
        @Sendable func writeAll() {
            for sink in sinks.values {
                for payload in payloads {
                    sink.write(payload)
                }
                sink.flush()
            }
        }
        if loop.inEventLoop {
            writeAll()
        } else {
            loop.execute(writeAll)
        }
    }

    private static func key(for sink: any EventSink) -> GroupKey {
        GroupKey(loop: ObjectIdentifier(sink.eventLoop), renderer: ObjectIdentifier(sink.renderer))
    }
}
