import ChatClient
import ChatProtocol
import ChatTestSupport
import Testing

/// The Swift client's folding against the shared vectors (`Tests/Fixtures/folding/`); the browser tests run the
/// same files through the web client's `store.js`, and the store tests through both message stores.
@Suite("Folding events into messages: the shared vectors, through Timeline")
struct FoldingVectorTests {
    @Test("every delivery of every vector shows the expected messages", arguments: try FoldingVector.all())
    func timeline(vector: FoldingVector) {
        for delivery in vector.deliveries {
            var timeline = Timeline()
            for step in delivery.steps {
                switch step {
                case .live(let events): for event in events { timeline.apply(event) }
                case .page(let events): timeline.apply(page: events)
                }
            }
            let shown = timeline.messages.map(FoldingVector.ExpectedMessage.init)
            #expect(shown == vector.expected, "\(vector.file), \(delivery.name)")
        }
    }
}
