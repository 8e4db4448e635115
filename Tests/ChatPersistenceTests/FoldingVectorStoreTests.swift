import ChatCore
import ChatProtocol
import ChatTestSupport
import Foundation
import Testing

/// Both message stores against the shared folding vectors (`Tests/Fixtures/folding/`): the events appended in
/// order, a page read back shows every message as the vectors' clients must show it.
@Suite("Folding events into messages: the shared vectors, through every MessageStore")
struct FoldingVectorStoreTests {
    @Test("a page read after the events shows the expected messages", arguments: MessageStoreConformanceTests.fixtures)
    func store(fixture: StoreFixture) async throws {
        for vector in try FoldingVector.all() {
            let (store, close) = try await fixture.make()
            // A kind this server does not know cannot be stored: only the known kinds are appended.
            let events = vector.events.compactMap(Self.stored)
            try await store.append(events, isolation: nil)
            let page = try await store.page(in: "r", before: nil, limit: 1000)
            let shown = page.filter { $0.kind == .message }.map(Self.shown)
            #expect(shown == vector.expected, "\(vector.file)")
            await close()
        }
    }

    private static func stored(_ event: MessagePayload) -> StoredMessage? {
        guard let kind = EventKind(rawValue: event.kind) else { return nil }
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
            reactions: message.reactions.map { ReactionPayload(emoji: $0.emoji, users: $0.users) })
    }
}
