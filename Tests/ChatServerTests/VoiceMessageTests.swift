import ChatProtocol
import ChatServer
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

/// Voice messages (PROTOCOL.md §9.3): a recording is an upload recognised as audio from its bytes, carrying the
/// length its uploader declared, on SQLite and PostgreSQL.
@Suite("Voice messages: recordings as attachments with their length")
struct VoiceMessageTests {
    @Test(
        "an Opus recording in WebM or Ogg is audio with its duration, delivered, in history and readable by the other member; a video is a download without one"
    )
    func recordings() async throws {
        try await withTestServer { server in
            let (ann, bob, dm, annSocket, bobSocket) = try await server.pair()
            let cases: [(String, [UInt8], String, Int?)] = [
                ("voice.webm", webmBytes(), "audio/webm", 3200),
                ("voice.ogg", oggOpusBytes(), "audio/ogg", 61_000),
                ("clip.webm", webmBytes(video: true), "application/octet-stream", nil),
            ]
            for (index, (name, bytes, type, duration)) in cases.enumerated() {
                let upload = try await server.api.send(
                    .POST, "/attachments?name=\(name)&duration=\(duration ?? 5000)", bytes: bytes,
                    contentType: "audio/webm", token: ann.token)
                #expect(upload.status == 201, "\(name)")
                let attachment = try upload.decode(AttachmentPayload.self)
                #expect(attachment.contentType == type && attachment.durationMs == duration, "\(name)")

                _ = try await annSocket.acked(
                    .send(
                        SendRequest(
                            room: dm.id, clientMsgID: "v\(index)", text: "",
                            attachments: [attachment.id.uuidString])))
                let delivered = try await bobSocket.nextEvent(.message)
                #expect(delivered.attachments?.first?.durationMs == duration, "\(name)")
                let fetched = try await server.api.get("/attachments/\(attachment.id)", token: bob.token)
                #expect(fetched.status == 200 && Array(fetched.body) == bytes, "\(name)")
                #expect(fetched.headers.first(name: "Content-Type") == type, "\(name)")
            }
            let history = try await server.api.send(.history, dm.id, token: bob.token).decode(HistoryPage.self)
            #expect(history.messages.compactMap { $0.attachments?.first?.durationMs } == [3200, 61_000])
        }
    }

    @Test("a duration that is not a whole number, or outside 1 ms to an hour, is refused and nothing is kept")
    func badDurations() async throws {
        try await withTestServer { server in
            let ann = try await server.register("ann")
            for duration in ["abc", "0", "-5", "3600001", "1.5"] {
                let reply = try await server.api.send(
                    .POST, "/attachments?name=v.webm&duration=\(duration)", bytes: webmBytes(),
                    contentType: "audio/webm", token: ann.token)
                #expect(reply.status == 400, "\(duration)")
                #expect(try reply.decode(APIErrorBody.self).code == .invalidBody, "\(duration)")
            }
            let files = FileManager.default.enumerator(atPath: server.configuration.attachmentsDirectory)?
                .compactMap { $0 as? String }.filter { $0.count > 40 }
            #expect(files?.isEmpty ?? true)
        }
    }
}
