import ChatProtocol
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOWebSocket
import WebSocketKit

/// What the socket's callbacks hand to the client: they run on the event loop, so they only forward.
enum SocketInput: Sendable {
    case text(String)
    case binary(Int)
}

extension ChatClient {
    /// The connection loop: connect, read until the socket closes, wait, and again, until stopped or refused.
    func run() async {
        var attempt = 0
        while !Task.isCancelled {
            self.setState(.connecting(attempt: attempt))
            do {
                let input = try await self.openSocket()
                if Task.isCancelled {
                    // Stopped while the socket was opening: it must not outlive the client.
                    try? await self.socket?.close(code: .normalClosure)
                    self.socket = nil
                    break
                }
                var reachedConnected = false
                for await item in input {
                    switch item {
                    case .text(let text):
                        self.handle(text: text)
                        if self.connectionState == .connected { reachedConnected = true }
                    case .binary(let count):
                        self.emit(.error(.malformedFrame("<\(count) binary bytes>", reason: "a binary frame")))
                    }
                }
                self.socket = nil
                self.socketReady = false
                self.awaitingResume = []
                if reachedConnected { attempt = 0 }
            } catch ChatClientError.unauthorized {
                self.outbox.failAll(ChatClientError.unauthorized)
                self.setState(.failed(.unauthorized))
                self.runTask = nil
                return
            } catch {
                self.configuration.logger.debug("connect failed: \(error)")
            }
            if Task.isCancelled { break }
            attempt += 1
            let delay = self.configuration.backoff.delay(forAttempt: attempt)
            self.setState(.waitingToReconnect(attempt: attempt, delay: delay))
            try? await Task.sleep(for: delay)
        }
    }

    /// Opens `/api/v1/ws` with the session's token; the returned sequence ends when the socket closes.
    func openSocket() async throws -> AsyncStream<SocketInput> {
        let token = try self.token()
        let (input, continuation) = AsyncStream.makeStream(of: SocketInput.self, bufferingPolicy: .unbounded)
        let pingInterval = self.configuration.pingInterval
        var configuration = WebSocketClient.Configuration()
        configuration.maxFrameSize = self.configuration.maxFrameBytes
        configuration.tlsConfiguration = self.configuration.tlsConfiguration
        let socket: WebSocket
        do {
            socket = try await WebSocket.open(
                url: self.server.webSocketURL(APIRoute.socket.path(query: [("token", token)])),
                configuration: configuration, on: self.eventLoops
            ) { socket in
                if let pingInterval {
                    socket.pingInterval = .nanoseconds(
                        Int64(pingInterval.components.seconds) * 1_000_000_000
                            + pingInterval.components.attoseconds / 1_000_000_000)
                }
                socket.onText { _, text in continuation.yield(.text(text)) }
                socket.onBinary { _, buffer in continuation.yield(.binary(buffer.readableBytes)) }
                socket.onClose.whenComplete { _ in continuation.finish() }
            }
        } catch WebSocketClient.Error.invalidResponseStatus(let head) {
            continuation.finish()
            if head.status == .unauthorized, try await self.tokenIsRefused(token) { throw ChatClientError.unauthorized }
            throw ChatClientError.unexpectedResponse(status: Int(head.status.code), body: head.status.reasonPhrase)
        } catch {
            continuation.finish()
            throw ChatClientError.unreachable(String(describing: error))
        }
        self.socket = socket
        return input
    }

    /// A 401 on the upgrade may come from a server that is shutting down; only when `GET /me` refuses the token
    /// too does the client give up.
    func tokenIsRefused(_ token: String) async throws -> Bool {
        do {
            _ = try await self.api.me(token: token)
            return false
        } catch ChatClientError.unauthorized {
            return true
        } catch {
            return false
        }
    }

    /// Handles one text frame from the server.
    func handle(text: String) {
        let frame: ServerMessage
        do {
            frame = try ServerMessage.decode(Data(text.utf8))
        } catch {
            let reason =
                switch error {
                case .notAFrame: "not a JSON object with a string \"type\""
                case .missingFields(let type): "a \"\(type)\" frame without the fields it needs"
                }
            self.emit(.error(.malformedFrame(text, reason: reason)))
            return
        }
        switch frame {
        case .hello(let hello):
            self.rooms = hello.rooms
            self.emit(.hello(user: hello.user, rooms: hello.rooms))
            // Resume the rooms we have seen; the others are followed live and their `resumed` tells us where
            // they stand, so the next reconnection can resume them too.
            let known = self.lastSeq.filter { hello.rooms.contains($0.key) }
            self.write(.resume(ResumeRequest(rooms: known)))
            // The socket takes sends from now on (the server handles frames in order, after the resume)...
            self.socketReady = true
            for pending in self.outbox.frames { self.write(pending) }
            // ...but the client is `connected` (live in every room) only once each room's replay is over.
            self.awaitingResume = Set(hello.rooms)
            if self.awaitingResume.isEmpty { self.setState(.connected) }
        case .message(let message, let clientMsgID):
            if let last = self.lastSeq[message.room], message.seq <= last { return }  // a replayed duplicate
            self.lastSeq[message.room] = message.seq
            self.emit(.message(message, clientMsgID: clientMsgID))
        case .ack(let ack):
            self.outbox.resolve(ack.clientMsgID, with: .success(ack))
        case .resumed(let resumed):
            self.lastSeq[resumed.room] = max(self.lastSeq[resumed.room] ?? 0, resumed.latestSeq)
            self.emit(.resumed(room: resumed.room, latestSeq: resumed.latestSeq, complete: resumed.complete))
            self.roomResumed(resumed.room)
        case .error(let error):
            self.handle(error: error)
        case .receipt(let receipt):
            self.emit(.receipt(receipt))
        case .typing(let room, let user):
            self.emit(.typing(room: room, user: user))
        case .presence(let users):
            self.emit(.presence(users))
        case .joined(let summary):
            if !self.rooms.contains(summary.id) { self.rooms.append(summary.id) }
            // The server replays the new room from its start; the summary already stands for everything up to
            // its latestSeq (history pages show it), so only what follows is an event.
            if self.lastSeq[summary.id] == nil { self.lastSeq[summary.id] = summary.latestSeq }
            self.emit(.joined(summary))
        case .left(let room):
            self.rooms.removeAll { $0 == room }
            self.lastSeq[room] = nil
            self.emit(.left(room: room))
        case .history, .pong, .unknown:
            break
        }
    }

    /// An error frame answers one of my sends (by `clientMsgID`), or nothing I wait for.
    func handle(error frame: ErrorFrame) {
        let error = ChatClientError.rejected(code: frame.code, message: frame.message)
        guard let ref = frame.ref, let pending = self.outbox.frame(for: ref) else {
            self.emit(.error(error))
            if let room = frame.ref { self.roomResumed(room) }  // a refused resume of that room
            return
        }
        if error.isTransient {
            // The same clientMsgID goes again later: the server stores it once whatever happens.
            let delay = self.configuration.retryAfterTransientError
            Task {
                try? await Task.sleep(for: delay)
                self.resend(pending, clientMsgID: ref)
            }
        } else {
            self.outbox.resolve(ref, with: .failure(error))
        }
    }

    /// One room's replay is over (or was refused); the last one makes the client `connected`.
    func roomResumed(_ room: String) {
        guard self.awaitingResume.remove(room) != nil, self.awaitingResume.isEmpty, self.socketReady else { return }
        self.setState(.connected)
    }

    func resend(_ frame: ClientMessage, clientMsgID: String) {
        guard self.outbox.frame(for: clientMsgID) != nil, self.socketReady else { return }
        self.write(frame)
    }

    /// Writes one frame if the socket is open; a frame lost here stays in the outbox and goes again on reconnect.
    func write(_ frame: ClientMessage) {
        guard let socket = self.socket, let data = try? JSONEncoder().encode(frame) else { return }
        socket.send(String(decoding: data, as: UTF8.self))
    }
}
