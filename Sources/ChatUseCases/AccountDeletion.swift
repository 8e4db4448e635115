import ChatCore
import ChatProtocol
import Foundation

/// Deleting an account (PROTOCOL.md §10.6), by its owner or by an administrator. In this order, so that a failure
/// at any step leaves something a retry finishes (an administrator's `DELETE /admin/users/{id}` goes on from
/// where it stopped): the account is deactivated (every token revoked, every socket closed with 4003, audited);
/// each message it sent is deleted by a `delete` event of its room, as if its author had deleted it (text and
/// attachments gone everywhere); then it becomes "Deleted user" and leaves every room but its direct rooms, which
/// stay, with the deletions, for the other person. Its bots are deleted with it (§9.13): no one is left to manage them.
public struct AccountDeletion: Sendable {
    let administration: Administration
    let accounts: any AccountStore
    let bots: Bots
    let sent: any SentMessages
    let hub: Hub
    let sessions: any LiveSessions
    /// A digest of a password no one knows: a deleted account's.
    let unusableDigest: String

    public init(
        administration: Administration, accounts: any AccountStore, bots: Bots, sent: any SentMessages, hub: Hub,
        sessions: any LiveSessions, unusableDigest: String
    ) {
        self.administration = administration
        self.accounts = accounts
        self.bots = bots
        self.sent = sent
        self.hub = hub
        self.sessions = sessions
        self.unusableDigest = unusableDigest
    }

    /// Messages deleted at once (one page of the account's messages).
    static let batch = 500

    /// Deletes the account `target`. The last active administrator cannot be deleted (`last_administrator`).
    public func delete(_ target: Administration.Target, by actor: Administration.Actor) async throws {
        let user = try await self.administration.apply(
            .deactivate(at: Date()), to: target, by: actor, as: "delete-account")
        let id = user.profile.id
        let author = Sender(name: user.profile.username, id: id)
        try await self.bots.deleteAll(ownedBy: id, by: actor)
        try await StoreUnavailable.guarding("the account's messages could not be deleted") {
            while true {
                let page = try await self.sent.messages(sentBy: id, after: nil, limit: Self.batch)
                guard !page.isEmpty else { break }
                try await self.deleteAll(page, as: author)
            }
            let username = "deleted-" + id.uuidString.replacingOccurrences(of: "-", with: "").prefix(24).lowercased()
            let left = try await self.accounts.anonymize(id, username: username, passwordHash: self.unusableDigest)
            for room in left {
                try await self.hub.room(room).evict(id)
                await self.sessions.left(id, room: room)
            }
        }
    }

    /// Submits a delete of each message to its room and waits for every one: the rooms commit them in batches.
    private func deleteAll(_ messages: [SentMessage], as author: Sender) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for message in messages {
                let room = try await self.hub.room(message.room)
                group.addTask {
                    do {
                        try await room.commit(MessageDraft(sender: author, body: .delete(target: message.seq)))
                    } catch RoomRejection.badTarget {
                        // Deleted meanwhile: what was wanted.
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
