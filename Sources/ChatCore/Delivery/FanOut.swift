import Foundation
import NIOCore

/// A room's members, grouped by event loop and wire format, so that delivering a batch of events costs one
/// render per format and one task per event loop, whatever the number of members.
///
/// Owned by the room actor: only the sink dictionaries captured by a delivery task leave it, as immutable
/// copies.
public struct FanOut {
    private struct GroupKey: Hashable {
        let loop: ObjectIdentifier
        let renderer: ObjectIdentifier
    }

    private struct Group {
        let loop: any EventLoop
        let renderer: any EventRenderer
        var sinks = SinkSet()
    }

    private var groups: [GroupKey: Group] = [:]

    private(set) var count = 0

    mutating func insert(_ sink: any EventSink) {
        let key = Self.key(for: sink)
        if self.groups[key, default: Group(loop: sink.eventLoop, renderer: sink.renderer)].sinks.insert(sink) {
            self.count += 1
        }
    }

    /// Removes a sink; `false` when it was not a member.
    @discardableResult
    mutating func remove(_ sink: any EventSink) -> Bool {
        let key = Self.key(for: sink)
        guard self.groups[key]?.sinks.remove(sink) == true else { return false }
        if self.groups[key]?.sinks.isEmpty == true {
            self.groups[key] = nil
        }
        self.count -= 1
        return true
    }

    func contains(_ sink: any EventSink) -> Bool {
        self.groups[Self.key(for: sink)]?.sinks.contains(sink) == true
    }

    /// Removes every connection of one account.
    mutating func removeAll(of account: UUID) {
        let sinks = self.groups.values.flatMap { $0.sinks.members.filter { $0.accountID == account } }
        for sink in sinks { self.remove(sink) }
    }

    /// Renders the events once per format and writes them, in order, to every member, or to every member but the
    /// connections of `excluded`.
    func deliver(_ events: [RoomEvent], excluding excluded: UUID? = nil) {
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
            let sinks =
                excluded.map { account in group.sinks.members.filter { $0.accountID != account } }
                ?? group.sinks.members
            Self.write(payloads, to: sinks, on: group.loop)
        }
    }

    /// Writes payloads to sinks that all live on `loop`, flushing each sink once: at once when the caller is
    /// on that loop (the room's own), else as one task on it.
    public static func write(_ payloads: [ByteBuffer], to sinks: ContiguousArray<any EventSink>, on loop: any EventLoop)
    {
        @Sendable func writeAll() {
            for sink in sinks {
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

/// Sinks in an array, for the tight loop of delivery, with an index for O(1) removal (swap with the last).
struct SinkSet {
    private(set) var members: ContiguousArray<any EventSink> = []
    private var positions: [ObjectIdentifier: Int] = [:]

    var isEmpty: Bool { self.members.isEmpty }

    func contains(_ sink: any EventSink) -> Bool {
        self.positions[ObjectIdentifier(sink)] != nil
    }

    /// Adds a sink; `false` if it was already there.
    mutating func insert(_ sink: any EventSink) -> Bool {
        let id = ObjectIdentifier(sink)
        guard self.positions[id] == nil else { return false }
        self.positions[id] = self.members.count
        self.members.append(sink)
        return true
    }

    /// Removes a sink; `false` if it was not there.
    mutating func remove(_ sink: any EventSink) -> Bool {
        guard let index = self.positions.removeValue(forKey: ObjectIdentifier(sink)) else { return false }
        let last = self.members.removeLast()
        if index < self.members.count {
            self.members[index] = last
            self.positions[ObjectIdentifier(last)] = index
        }
        return true
    }
}
