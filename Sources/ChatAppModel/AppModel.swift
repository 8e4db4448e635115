import ChatClient
import ChatProtocol
import Foundation
import Observation

/// The app's root model: the session, the connection's status line, the chat list and open conversations.
/// It reads the client's events on the main actor and hands each to the models it concerns.
@MainActor
@Observable
public final class AppModel {
    /// The client, once signed in.
    public private(set) var client: ChatClient?
    /// Me, once signed in.
    public private(set) var user: UserProfile?
    /// The connection's state; the view shows ``statusText`` when it is not `.connected`.
    public private(set) var connection: ConnectionState = .idle
    /// The chat list.
    public let chats = ChatListModel()
    /// Open conversations by room id.
    public private(set) var conversations: [String: ConversationModel] = [:]
    /// The last sign-in error, for the login screen.
    public private(set) var signInError: String?

    private var listener: Task<Void, Never>?

    /// A signed-out app.
    public init() {}

    /// A status line for the top of the screen: empty while connected.
    public var statusText: String {
        switch self.connection {
        case .connected: ""
        case .waitingToReconnect: "Waiting for network…"
        case .connecting(let attempt): attempt == 0 ? "Connecting…" : "Reconnecting…"
        case .failed: "Signed out: please sign in again"
        case .idle, .stopped: "Offline"
        }
    }

    /// Signs in (or registers) and starts the connection.
    public func signIn(server: ServerAddress, username: String, password: String, register: Bool = false) async {
        let client = ChatClient(server: server)
        do {
            let session =
                register
                ? try await client.register(username: username, password: password)
                : try await client.login(username: username, password: password)
            await self.start(client: client, user: session.user)
        } catch {
            self.signInError = String(describing: error)
        }
    }

    /// Starts with a client that already holds a session (a saved one, or a test's).
    public func start(client: ChatClient, user: UserProfile) async {
        self.signInError = nil
        self.client = client
        self.user = user
        self.chats.me = user.id
        let events = await client.connect()
        self.listener = Task { [weak self] in
            for await event in events { self?.handle(event) }
        }
        await self.refreshRooms()
    }

    /// Reloads the chat list from the server.
    public func refreshRooms() async {
        guard let client = self.client, let rooms = try? await client.rooms() else { return }
        self.chats.load(rooms)
    }

    /// The conversation for `room`, created (and its newest page loaded) on first use; marks it open.
    public func open(room: String) async -> ConversationModel? {
        guard let client = self.client, let user = self.user else { return nil }
        self.chats.openRoom = room
        if let existing = self.conversations[room] { return existing }
        let conversation = ConversationModel(room: room, me: user.id, backend: client)
        self.conversations[room] = conversation
        await conversation.loadLatest()
        return conversation
    }

    /// Leaves the conversation screen.
    public func close(room: String) {
        if self.chats.openRoom == room { self.chats.openRoom = nil }
    }

    /// Stops the connection and forgets the session.
    public func signOut() async {
        self.listener?.cancel()
        try? await self.client?.logout()
        self.client = nil
        self.user = nil
        self.conversations = [:]
        self.chats.load([])
        self.connection = .idle
    }

    /// Dispatches one event.
    func handle(_ event: ChatEvent) {
        if case .state(let state) = event {
            self.connection = state
            if state == .connected { Task { await self.refreshRooms() } }
        }
        self.chats.apply(event)
        for conversation in self.conversations.values { conversation.apply(event) }
    }
}
