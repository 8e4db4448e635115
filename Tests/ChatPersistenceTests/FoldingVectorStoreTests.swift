import ChatCore
import ChatProtocol
import ChatTestSupport
import Foundation
import Testing

/// Both message stores against the shared folding vectors (`Tests/Fixtures/folding/`): the events appended in
/// order, a page read back shows every message as the vectors' clients must show it.
///
/// A store numbers what it stores without gaps, and a vector's unknown kinds are not stored (nor, by a store that
/// several writers share, a change of a message that does not exist), so the events after one are renumbered: their
/// targets and the expected messages are read through the store's numbering.
@Suite("Folding events into messages: the shared vectors, through every MessageStore")
struct FoldingVectorStoreTests {
    @Test("a page read after the events shows the expected messages", arguments: MessageStoreConformanceTests.fixtures)
    func store(fixture: StoreFixture) async throws {
        for vector in try FoldingVector.all() {
            let (store, close) = try await fixture.make()
            // A kind this server does not know cannot be stored: only the known kinds are appended.
            var numbering: [Int64: Int64] = [:]
            for var event in vector.events.compactMap(Self.stored) {
                let proposed = event.seq
                event.target = event.target.map { numbering[$0] ?? $0 }
                do {
                    numbering[proposed] = try await store.append([event], isolation: nil).first?.seq
                } catch RoomRejection.badTarget {
                    // A store that several writers share refuses a change of no message, which no room proposes;
                    // SQLite's stores it. Either way it changes nothing shown.
                    continue
                }
            }
            let page = try await store.page(in: "r", before: nil, limit: 1000)
            let shown = page.filter { $0.kind == .message }.map(Self.shown)
            let expected = vector.expected.map { message in
                FoldingVector.ExpectedMessage(
                    seq: numbering[message.seq] ?? message.seq, text: message.text, editedAt: message.editedAt,
                    deleted: message.deleted, reactions: message.reactions, pinned: message.pinned)
            }
            #expect(shown == expected, "\(vector.file)")
            await close()
        }
    }

    private static func stored(_ event: MessagePayload) -> StoredMessage? {
        guard let kind = event.eventKind else { return nil }
        return StoredMessage(
            room: RoomID(event.room), seq: event.seq, id: event.id,
            sender: Sender(name: event.sender.name, id: event.sender.id),
            kind: kind, text: event.text, date: Date(timeIntervalSince1970: Double(event.date) / 1000),
            target: event.target,
            emoji: event.emoji, added: event.added)
    }

    private static func shown(_ message: StoredMessage) -> FoldingVector.ExpectedMessage {
        FoldingVector.ExpectedMessage(
            seq: message.seq, text: message.text,
            editedAt: message.editedAt.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) },
            deleted: message.deleted,
            reactions: message.reactions.map { ReactionPayload(emoji: $0.emoji, users: $0.users) },
            pinned: message.pinned)
    }
}
