import ChatCore
import ChatProtocol
import Foundation

/// An account's own data, to take away (`GET /api/v1/me/export`, PROTOCOL.md §10.6): its profile, its rooms and
/// every message it sent and has not deleted, as one JSON object written a page of messages at a time, so a large
/// export never sits in memory whole.
public struct ExportAccount: Sendable {
    let directory: any RoomDirectory
    let sent: any SentMessages

    public init(directory: any RoomDirectory, sent: any SentMessages) {
        self.directory = directory
        self.sent = sent
    }

    /// Messages read per page.
    static let pageSize = 500
    public static let format = "swiftchat-export-1"

    /// What is read before the first byte goes out, so that a failing database is still a 503: the head (profile
    /// and rooms) and the first page of messages.
    public func begin(_ account: Account) async throws -> Export {
        try await StoreUnavailable.guarding("the export could not be read") {
            let rooms = try await self.directory.memberships(of: account.id).map {
                ExportedRoom(id: $0.room.id.rawValue, kind: $0.room.kind, name: $0.room.name)
            }
            let head = AccountExportHead(
                format: Self.format, exportedAt: Date().milliseconds, profile: account.profile, rooms: rooms)
            let first = try await self.sent.messages(sentBy: account.id, after: nil, limit: Self.pageSize)
            return Export(head: head, first: first, account: account.id, sent: self.sent)
        }
    }

    /// An export under way.
    public struct Export: Sendable {
        let head: AccountExportHead
        let first: [SentMessage]
        let account: UUID
        let sent: any SentMessages

        /// Gives `sink` the JSON object in pieces: the head with `"messages":[`, each page, then `]}`. A failure
        /// after the first piece can only end the response early.
        public func write(to sink: (Data) async throws -> Void) async throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            var head = try encoder.encode(self.head)
            head.removeLast()  // the closing brace: the messages follow inside the same object
            try await sink(head + Data(#","messages":["#.utf8))
            var page = self.first
            var first = true
            while !page.isEmpty {
                var piece = Data()
                for message in page {
                    if !first { piece.append(UInt8(ascii: ",")) }
                    first = false
                    piece.append(try encoder.encode(Self.exported(message)))
                }
                try await sink(piece)
                guard page.count == ExportAccount.pageSize, let last = page.last else { break }
                page = try await self.sent.messages(
                    sentBy: self.account, after: (last.room, last.seq), limit: ExportAccount.pageSize)
            }
            try await sink(Data("]}".utf8))
        }

        static func exported(_ message: SentMessage) -> ExportedMessage {
            ExportedMessage(
                room: message.room.rawValue, seq: message.seq, date: message.date.milliseconds, text: message.text,
                editedAt: message.editedAt?.milliseconds,
                attachments: message.attachments.isEmpty ? nil : message.attachments.map(\.payload))
        }
    }
}
