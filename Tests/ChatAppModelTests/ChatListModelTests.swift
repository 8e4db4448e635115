import ChatAppModel
import ChatClient
import ChatProtocol
import Foundation
import Testing

@MainActor
@Suite("ChatListModel: ordering and unread badges")
struct ChatListModelTests {
    let me = SenderPayload(id: UUID(), name: "ann")
    let bob = SenderPayload(id: UUID(), name: "bob")

    func summary(_ id: String, name: String, last: MessagePayload?, unread: Int64 = 0) -> RoomSummary {
        RoomSummary(
            id: id, kind: .known(.channel), name: name, peer: nil, lastMessage: last, latestSeq: last?.seq ?? 0,
            lastReadSeq: 0, unreadCount: unread)
    }

    @Test("rows are ordered by latest activity; a new message moves its room to the top and raises its badge")
    func ordering() {
        let list = ChatListModel(me: self.me.id)
        list.load([
            self.summary("a", name: "Alpha", last: message(1, from: self.bob, in: "a")),
            self.summary("b", name: "Beta", last: message(5, from: self.bob, in: "b"), unread: 2),
            self.summary("c", name: "Gamma", last: nil),
        ])
        #expect(list.rows.map(\.id) == ["b", "a", "c"])
        #expect(list.totalUnread == 2)
        list.apply(.message(message(9, from: self.bob, in: "a", text: "news"), clientMsgID: nil))
        #expect(list.rows.map(\.id) == ["a", "b", "c"])
        #expect(list.rows[0].unread == 1 && list.rows[0].preview == "news")
        // my own message and the open room's messages are not unread
        list.apply(.message(message(10, from: self.me, in: "a"), clientMsgID: "x"))
        list.openRoom = "b"
        list.apply(.message(message(11, from: self.bob, in: "b"), clientMsgID: nil))
        #expect(list.rows.first { $0.id == "a" }?.unread == 1)
        #expect(list.rows.first { $0.id == "b" }?.unread == 0)
        // read on another device
        list.apply(.receipt(ReceiptFrame(room: "a", user: self.me.id, seq: 10)))
        #expect(list.totalUnread == 0)
        // rooms pushed while connected
        list.apply(.joined(self.summary("d", name: "Delta", last: message(20, from: self.bob, in: "d"), unread: 1)))
        #expect(list.rows.first?.id == "d")
        list.apply(.left(room: "d"))
        #expect(!list.rows.contains { $0.id == "d" })
    }

    @Test("a room joined while connected is replayed from its start; its badge stays the server's count")
    func joinedRoomReplay() {
        let list = ChatListModel(me: self.me.id)
        list.load([])
        list.apply(.joined(self.summary("g", name: "Group", last: message(3, from: self.bob, in: "g"), unread: 3)))
        for seq in Int64(1)...3 {
            list.apply(.message(message(seq, from: self.bob, in: "g"), clientMsgID: nil))
        }
        #expect(list.rows.first?.unread == 3)
        list.apply(.message(message(4, from: self.bob, in: "g", text: "new"), clientMsgID: nil))
        #expect(list.rows.first?.unread == 4)
        #expect(list.rows.first?.preview == "new")
    }

    @Test("a rename newer than the summary renames the row; a replayed older one does not bring the old name back")
    func rename() {
        let list = ChatListModel(me: self.me.id)
        list.load([self.summary("g", name: "Kyoto", last: message(5, from: self.bob, in: "g"))])
        var older = message(3, from: self.bob, in: "g", text: "Trip")
        older.kind = .known(.rename)
        list.apply(.message(older, clientMsgID: nil))
        #expect(list.rows.first?.name == "Kyoto")
        var newer = message(6, from: self.bob, in: "g", text: "osaka")
        newer.kind = .known(.rename)
        list.apply(.message(newer, clientMsgID: nil))
        #expect(list.rows.first?.name == "osaka" && list.rows.first?.initials == "O")
        #expect(list.rows.first?.unread == 0 && list.rows.first?.preview == "m5")
    }
}
