import Foundation

extension PresenceFrame: WritesOwnJSON {
    /// The frame as `JSONEncoder` with `.sortedKeys` writes it: a connecting client's snapshot lists every online
    /// roommate (a lobby's thousand), and a batch of changes goes to every roommate.
    public func json() -> [UInt8] {
        var json = JSONBytes(capacity: 32 + 80 * self.users.count)
        json.beginObject()
        json.field("type", self.type.rawValue)
        json.field("users", self.users) { user, json in
            json.beginObject()
            json.field("id", user.id)
            json.field("lastSeen", user.lastSeen)
            json.field("online", user.online)
            json.endObject()
        }
        json.endObject()
        return json.bytes
    }
}
