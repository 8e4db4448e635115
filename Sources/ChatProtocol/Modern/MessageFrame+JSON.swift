import Foundation

extension MessageFrame: WritesOwnJSON {
    /// The frame as `JSONEncoder` with `.sortedKeys` writes it (the same keys, order and values; see
    /// ``WritesOwnJSON`` for escaping), written by ``JSONBytes`` at a fraction of the cost: the server renders every message frame, live
    /// and replayed, through here. `FrameJSONTests` compare it with `JSONEncoder`'s and decode it back.
    public func json() -> [UInt8] {
        let event = self.event
        var json = JSONBytes(capacity: 256 + event.text.utf8.count)
        json.beginObject()
        json.field("added", event.added)
        json.field("attachments", event.attachments, Self.write)
        json.field("clientMsgID", self.clientMsgID)
        json.field("date", event.date)
        json.field("deleted", event.deleted)
        json.field("editedAt", event.editedAt)
        json.field("emoji", event.emoji)
        if let original = event.forwardedFrom {
            json.key("forwardedFrom")
            Self.write(original, to: &json)
        }
        json.field("id", event.id)
        json.field("kind", event.kind.rawValue)
        if let member = event.member {
            json.key("member")
            Self.write(member, to: &json)
        }
        if let mentions = event.mentions {
            json.key("mentions")
            json.beginArray()
            for user in mentions { json.uuid(user) }
            json.endArray()
        }
        json.field("mentionsAll", event.mentionsAll)
        json.field("pinned", event.pinned)
        if let preview = event.preview {
            json.key("preview")
            Self.write(preview, to: &json)
        }
        json.field("reactions", event.reactions, Self.write)
        if let quote = event.replyTo {
            json.key("replyTo")
            json.beginObject()
            json.key("sender")
            Self.write(quote.sender, to: &json)
            json.field("seq", quote.seq)
            json.field("text", quote.text)
            json.endObject()
        }
        json.field("room", event.room)
        json.key("sender")
        Self.write(event.sender, to: &json)
        json.field("seq", event.seq)
        json.field("target", event.target)
        json.field("text", event.text)
        json.field("type", self.type.rawValue)
        json.endObject()
        return json.bytes
    }

    private static func write(_ sender: SenderPayload, to json: inout JSONBytes) {
        json.beginObject()
        json.field("id", sender.id)
        json.field("name", sender.name)
        json.field("via", sender.via)
        json.endObject()
    }

    private static func write(_ attachment: AttachmentPayload, to json: inout JSONBytes) {
        json.beginObject()
        json.field("contentType", attachment.contentType)
        json.field("durationMs", attachment.durationMs.map(Int64.init))
        json.field("height", attachment.height.map(Int64.init))
        json.field("id", attachment.id)
        json.field("name", attachment.name)
        json.field("size", attachment.size)
        json.field("width", attachment.width.map(Int64.init))
        json.endObject()
    }

    private static func write(_ preview: LinkPreviewPayload, to json: inout JSONBytes) {
        json.beginObject()
        json.field("description", preview.description)
        if let image = preview.image {
            json.key("image")
            Self.write(image, to: &json)
        }
        json.field("siteName", preview.siteName)
        json.field("title", preview.title)
        json.field("url", preview.url)
        json.endObject()
    }

    private static func write(_ reaction: ReactionPayload, to json: inout JSONBytes) {
        json.beginObject()
        json.field("emoji", reaction.emoji)
        json.key("users")
        json.beginArray()
        for user in reaction.users { json.uuid(user) }
        json.endArray()
        json.endObject()
    }
}
