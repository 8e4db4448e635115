import Crypto
import Foundation

/// Voluntary Application Server Identification (RFC 8292): the server signs, for each push service, a short-lived
/// token with its key pair, and sends the public key with it; browsers subscribed with that public key
/// (`applicationServerKey`), so the push service accepts only this server's messages for them.
public struct VAPID: Sendable {
    public let key: P256.Signing.PrivateKey
    /// Who runs the server: `mailto:` or an `https:` URL, for the push service to reach the operator.
    public let subject: String

    public init(key: P256.Signing.PrivateKey, subject: String) {
        self.key = key
        self.subject = subject
    }

    /// The public key as browsers take it: the uncompressed point, base64url.
    public var publicKey: String { self.key.publicKey.x963Representation.base64URL }

    /// A new private key, raw (32 bytes), for a server's first start.
    public static func newKey() -> Data { P256.Signing.PrivateKey().rawRepresentation }

    /// The key pair of a raw private key (as ``newKey()`` makes one).
    public init(rawKey: Data, subject: String) throws {
        self.init(key: try P256.Signing.PrivateKey(rawRepresentation: rawKey), subject: subject)
    }

    /// How long a token is good for: RFC 8292 allows 24 hours; half leaves room for clocks that disagree.
    public static let lifetime: TimeInterval = 12 * 3600

    /// The `Authorization` header for a request to `endpoint`: `vapid t=JWT, k=PUBLIC KEY`.
    public func authorization(for endpoint: URL, now: Date = Date()) throws -> String {
        "vapid t=\(try self.token(audience: Self.audience(of: endpoint), now: now)), k=\(self.publicKey)"
    }

    /// The push service's origin, the token's `aud`.
    public static func audience(of endpoint: URL) -> String {
        var origin = "\(endpoint.scheme ?? "https")://\(endpoint.host ?? "")"
        if let port = endpoint.port { origin += ":\(port)" }
        return origin
    }

    /// A JWT signed with ES256: `{"typ":"JWT","alg":"ES256"}` and `{"aud","exp","sub"}`.
    func token(audience: String, now: Date) throws -> String {
        struct Claims: Encodable {
            let aud: String
            let exp: Int
            let sub: String
        }
        let header = Data(#"{"typ":"JWT","alg":"ES256"}"#.utf8).base64URL
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let claims = try encoder.encode(
            Claims(
                aud: audience, exp: Int(now.addingTimeInterval(Self.lifetime).timeIntervalSince1970), sub: self.subject)
        ).base64URL
        let signingInput = "\(header).\(claims)"
        let signature = try self.key.signature(for: Data(signingInput.utf8)).rawRepresentation.base64URL
        return "\(signingInput).\(signature)"
    }
}
