import Foundation

/// Whose picture each attachment is (PROTOCOL.md §6.5, §7.7). A picture is kept as an upload is; being someone's
/// picture is what lets anyone see it and keeps it from being forgotten as an upload no message carries.
public protocol AvatarStore: Sendable {
    /// Makes `attachment` the account's picture; `nil` takes it away (back to the colour and initials).
    func setAvatar(_ attachment: UUID?, ofAccount id: UUID) async throws
    /// Makes `attachment` the room's picture; `nil` takes it away.
    func setAvatar(_ attachment: UUID?, ofRoom id: RoomID) async throws
    /// Whether `attachment` is an account's or a room's picture now.
    func isAvatar(_ attachment: UUID) async throws -> Bool
}
