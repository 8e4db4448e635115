import Crypto
import Foundation

/// Identities for clients of the tutorial protocols, which name themselves and have no account.
public enum TutorialIdentity {
    /// The author of the server's own announcements on `/chat` (joins and leaves).
    public static let server = Sender(name: "SwiftChat", id: UUID(uuidString: "00000000-5C00-4000-8000-000000000001")!)

    /// A stable identifier for a name, so that a TCP user appears to `/chat` clients with the same `userID`
    /// every time: a name-based UUID (RFC 9562 version 5) in a namespace of SwiftChat's own.
    public static func userID(forName name: String) -> UUID {
        self.nameBased(Array(name.utf8), in: self.namespace)
    }

    /// The id modern clients see for a tutorial sender (PROTOCOL.md §9.1, `via`): derived from the id it spoke
    /// with in a namespace of its own, so it never equals an account's id even when a `/chat` client names itself
    /// with one, and the same tutorial sender keeps the same id.
    public static func modernID(forTutorialSender id: UUID) -> UUID {
        self.nameBased(withUnsafeBytes(of: id.uuid) { Array($0) }, in: self.tutorialNamespace)
    }

    private static func nameBased(_ name: [UInt8], in namespace: [UInt8]) -> UUID {
        var digest = Array(Insecure.SHA1.hash(data: namespace + name))
        digest[6] = (digest[6] & 0x0F) | 0x50  // version 5
        digest[8] = (digest[8] & 0x3F) | 0x80  // RFC 9562 variant
        return UUID(
            uuid: (
                digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7],
                digest[8], digest[9], digest[10], digest[11], digest[12], digest[13], digest[14], digest[15]
            ))
    }

    private static let tutorialNamespace: [UInt8] = {
        let uuid = UUID(uuidString: "8E0B6C1F-2D4A-4F3B-9C7E-1A5D3B9F7001")!.uuid  // fixed forever, like `namespace`
        return withUnsafeBytes(of: uuid) { Array($0) }
    }()

    private static let namespace: [UInt8] = {
        let uuid = UUID(uuidString: "3C5F8E2A-7B1D-4C9E-A6F0-5C1A7C4A7000")!.uuid  // fixed forever: IDs depend on it
        return withUnsafeBytes(of: uuid) { Array($0) }
    }()
}
