import ChatCore
import ChatProtocol
import Foundation
import NIOCore
import NIOWebSocket

/// One `/chat` connection: the Vapor SwiftUI tutorial's protocol on the shared lobby.
///
/// On connect it joins the lobby and receives the recent history; each valid text frame becomes a lobby
/// message; a bad frame gets `{"error": …}` and the connection stays open. The first name a client uses is
/// announced as joined, and as left when it goes.
final class LobbyChatSession: WebSocketSession {
    private let connection: WebSocketConnection
    private let lobby: Room
    private let decoder: LobbyChatDecoder
    private let guest: Sender
    private let sendLimit: TutorialSendLimit
    /// The client's address (``Request/clientAddress`` of the upgrade), for the per-address send limit.
    private let address: String
    private var announcedName: String?

    init(
        connection: WebSocketConnection, lobby: Room, decoder: LobbyChatDecoder, history: Int,
        sendLimit: TutorialSendLimit, address: String
    ) {
        self.address = address
        self.connection = connection
        self.sendLimit = sendLimit
        self.lobby = lobby
        self.decoder = decoder
        self.guest = Sender(name: "Guest", id: UUID())
        lobby.join(connection, history: history)
    }

    func didReceive(_ message: WebSocketMessage) {
        guard case .text(let text, _) = message else {
            self.reject("binary frames are not part of the /chat protocol; send JSON text")
            return
        }
        switch self.decoder.decode(text) {
        case .failure(let rejection):
            self.reject(rejection.description)
        case .success(let submitted):
            if let seconds = self.sendLimit.attempt(
                connection: ObjectIdentifier(self), address: self.address)
            {
                return self.reject(TCPCommand.Rejection.rateLimited(retryAfterSeconds: seconds).description)
            }
            let sender = self.sender(for: submitted)
            if self.announcedName == nil, submitted.user != nil {
                self.announcedName = sender.name
                self.lobby.announce(PresenceChange(.joined, name: sender.name))
            }
            let connection = self.connection
            self.lobby.submit(MessageDraft(sender: sender, text: submitted.message)) { result in
                guard case .failure = result else { return }
                connection.eventLoop.execute {
                    Self.sendError("the message could not be stored; try again", on: connection)
                }
            }
        }
    }

    func didClose() {
        self.lobby.leave(self.connection, announcing: self.announcedName)
    }

    /// The tutorial's client names itself in every frame; its first stage sends no name and is a guest.
    private func sender(for submitted: SubmittedChatMessage) -> Sender {
        guard let name = submitted.user else {
            return Sender(name: self.guest.name, id: submitted.userID ?? self.guest.id, via: .chat)
        }
        return Sender(name: name, id: submitted.userID ?? TutorialIdentity.userID(forName: name), via: .chat)
    }

    private func reject(_ reason: String) {
        Self.sendError(reason, on: self.connection)
    }

    private static func sendError(_ reason: String, on connection: WebSocketConnection) {
        guard let data = try? JSONEncoder().encode(LobbyChatError(error: reason)) else { return }
        connection.send(ByteBuffer(bytes: data), opcode: .text)
        connection.flush()
    }
}
