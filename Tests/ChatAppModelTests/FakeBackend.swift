import ChatAppModel
import ChatClient
import ChatProtocol
import Foundation

/// A scripted backend: sends succeed or fail as the test says, history pages come from a list.
actor FakeBackend: ChatBackend {
    var failNextSends = 0
    var sent: [(text: String, clientMsgID: String)] = []
    var reads: [Int64] = []
    var stored: [MessagePayload] = []
    let room: String
    let me: SenderPayload

    init(room: String, me: SenderPayload, stored: [MessagePayload] = []) {
        self.room = room
        self.me = me
        self.stored = stored
    }

    func failSends(_ count: Int) { self.failNextSends = count }
    func sentIDs() -> [String] { self.sent.map(\.clientMsgID) }
    func storedMessages() -> [MessagePayload] { self.stored }

    func send(_ text: String, to room: String, replyTo: Int64?, attachments: [UUID], clientMsgID: String) async throws
        -> Ack
    {
        self.sent.append((text, clientMsgID))
        if self.failNextSends > 0 {
            self.failNextSends -= 1
            throw ChatClientError.rejected(code: .unavailable, message: "try again")
        }
        let seq = (self.stored.last?.seq ?? 0) + 1
        let message = MessagePayload(room: room, seq: seq, id: UUID(), sender: self.me, text: text, date: seq * 1000)
        self.stored.append(message)
        return Ack(clientMsgID: clientMsgID, room: room, seq: seq, id: message.id, date: message.date)
    }

    func history(room: String, before: Int64?, limit: Int) async throws -> HistoryPage {
        let older = self.stored.filter { before == nil || $0.seq < before! }
        let page = Array(older.suffix(limit))
        return HistoryPage(messages: page, hasMore: older.count > page.count)
    }

    func markRead(room: String, seq: Int64) async { self.reads.append(seq) }
    func typing(in room: String) async {}
    func rooms() async throws -> [RoomSummary] { [] }
}

/// A message from someone in a room.
func message(_ seq: Int64, from sender: SenderPayload, in room: String = "lobby", text: String? = nil) -> MessagePayload
{
    MessagePayload(room: room, seq: seq, id: UUID(), sender: sender, text: text ?? "m\(seq)", date: seq * 1000)
}
