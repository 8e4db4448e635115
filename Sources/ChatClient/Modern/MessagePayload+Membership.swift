import ChatProtocol

extension MessagePayload {
    /// A membership event as a line of the conversation, as WeChat shows one (“ann added bob”); `nil` for any other
    /// event. Names are usernames, as the event carries them.
    public var membershipSentence: String? {
        let actor = self.sender.name
        let member = self.member?.name ?? actor
        switch self.eventKind {
        case .joined: return "\(member) joined"
        case .left: return "\(member) left"
        case .invited: return "\(actor) added \(member)"
        case .removed: return "\(actor) removed \(member)"
        case .banned: return "\(actor) banned \(member)"
        case .role:
            switch RoomRole(rawValue: self.text) {
            case .owner: return "\(actor) made \(member) the owner"
            case .moderator: return "\(actor) made \(member) a moderator"
            case .member, nil: return "\(actor) made \(member) a member"
            }
        case .message, .edit, .delete, .reaction, .rename, .preview, .pin, nil: return nil
        }
    }
}
