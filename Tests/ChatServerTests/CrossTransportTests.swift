import ChatCore
import ChatServer
import ChatTestSupport
import Foundation
import Testing

@Suite("One lobby across /chat and TCP (PROTOCOL.md §4)")
struct CrossTransportTests {
    @Test func chatMessagesReachTCPClients() async throws {
        try await withTestServer { server in
            let tcp = try await server.joinedLineClient("Luke")
            let ws = try await server.chatClient()
            try await ws.send(text: tutorialFrame("hello from SwiftUI: yes", user: "Ann", userID: UUID()))
            try await tcp.waitForLine("Ann has joined")
            #expect(try await tcp.nextLine() == "Ann:hello from SwiftUI: yes")
        }
    }

    @Test("TCP messages reach /chat clients with a stable userID derived from the name")
    func tcpMessagesReachChatClients() async throws {
        try await withTestServer({ $0.announceJoins = false }) { server in
            let ws = try await server.chatClient()
            let tcp = try await server.joinedLineClient("Luke")
            try await tcp.write("msg:hi from DogeChat\n")
            let received = try await ws.nextJSON(TutorialMessage.self)
            #expect(received.user == "Luke" && received.message == "hi from DogeChat")
            #expect(received.userID == TutorialIdentity.userID(forName: "Luke"))
        }
    }

    @Test("both transports see one order, and history keeps it")
    func oneOrdering() async throws {
        try await withTestServer({ $0.announceJoins = false }) { server in
            let ws = try await server.chatClient()
            let tcp = try await server.joinedLineClient("T")
            let wsID = UUID()
            for index in 0..<20 {
                if index.isMultiple(of: 2) {
                    try await ws.send(text: tutorialFrame("w\(index)", user: "W", userID: wsID))
                } else {
                    try await tcp.write("msg:t\(index)\n")
                }
            }
            var seenOverWS: [String] = []
            for _ in 0..<20 { seenOverWS.append(try await ws.nextJSON(TutorialMessage.self).message) }
            // TCP clients always see joins (`W has joined`), whatever /chat's announce setting.
            var seenOverTCP: [String] = []
            while seenOverTCP.count < 20 {
                let line = try await tcp.nextLine()
                if let colon = line.firstIndex(of: ":") {
                    seenOverTCP.append(String(line[line.index(after: colon)...]))
                }
            }
            #expect(seenOverWS == seenOverTCP)
            #expect(Set(seenOverWS).count == 20)
            let newcomer = try await server.chatClient()
            var history: [String] = []
            for _ in 0..<20 { history.append(try await newcomer.nextJSON(TutorialMessage.self).message) }
            #expect(history == seenOverWS)
        }
    }
}
