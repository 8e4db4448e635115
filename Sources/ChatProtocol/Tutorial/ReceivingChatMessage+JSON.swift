import Foundation

extension ReceivingChatMessage {
    /// The bytes a default `JSONEncoder` with `.sortedKeys` writes for this message (slashes escaped, `date` as
    /// seconds since 2001), written by ``JSONBytes``: every message a `/chat` client receives is rendered here,
    /// and `JSONEncoder` was 6 % of a `/chat` message's CPU (docs/BENCHMARKS.md, "The fixed cost of a message, taken
    /// apart"). `nil` when `date` is not a finite number, which `JSONEncoder` refuses too. `LobbyChatJSONTests`
    /// compare it with `JSONEncoder`'s.
    public func json() -> [UInt8]? {
        guard self.date.timeIntervalSinceReferenceDate.isFinite else { return nil }
        var json = JSONBytes(capacity: 160 + self.message.utf8.count + self.user.utf8.count, escapingSlashes: true)
        json.beginObject()
        json.key("date")
        json.number(self.date.timeIntervalSinceReferenceDate)
        json.field("id", self.id)
        json.field("message", self.message)
        json.field("user", self.user)
        json.field("userID", self.userID)
        json.endObject()
        return json.bytes
    }
}
