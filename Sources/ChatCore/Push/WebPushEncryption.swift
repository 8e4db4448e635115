import Crypto
import Foundation

/// The encryption of a Web Push message (RFC 8291): `aes128gcm` content coding (RFC 8188), one record, keyed by an
/// ECDH agreement between a fresh key of the server's and the subscription's `p256dh` key, mixed with its `auth`
/// secret. Only the browser that subscribed can read it; the push service in between cannot.
public enum WebPushEncryption {
    /// A subscription's keys, as the browser's `PushSubscription` gives them.
    public struct Recipient: Sendable {
        public let publicKey: P256.KeyAgreement.PublicKey
        /// The 16-byte authentication secret.
        public let authSecret: Data

        public init(publicKey: P256.KeyAgreement.PublicKey, authSecret: Data) {
            self.publicKey = publicKey
            self.authSecret = authSecret
        }
    }

    /// One record holds a whole push message (at most 4,096 bytes of body, RFC 8030 §7.2).
    static let recordSize: UInt32 = 4096

    /// The body to send: `salt | record size | key id length | the server's public key | ciphertext and tag`.
    /// `senderKey` and `salt` are fresh for every message; tests give RFC 8291's to check the result byte for byte.
    public static func encrypt(
        _ plaintext: Data, for recipient: Recipient, senderKey: P256.KeyAgreement.PrivateKey = .init(),
        salt: Data = Data(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })
    ) throws -> Data {
        let senderPublic = senderKey.publicKey.x963Representation
        let (key, nonce) = try self.contentKeys(
            secret: senderKey.sharedSecretFromKeyAgreement(with: recipient.publicKey),
            recipientPublic: recipient.publicKey.x963Representation, senderPublic: senderPublic,
            authSecret: recipient.authSecret, salt: salt)
        // The last (and only) record ends with the delimiter 2, without padding.
        let sealed = try AES.GCM.seal(plaintext + [2], using: key, nonce: nonce)
        var body = salt
        withUnsafeBytes(of: self.recordSize.bigEndian) { body.append(contentsOf: $0) }
        body.append(UInt8(senderPublic.count))
        body.append(senderPublic)
        body.append(sealed.ciphertext)
        body.append(sealed.tag)
        return body
    }

    /// The plaintext of a body made by ``encrypt(_:for:senderKey:salt:)``, read with the recipient's private key: what
    /// a browser does, and what the tests' push receiver does.
    public static func decrypt(
        _ body: Data, privateKey: P256.KeyAgreement.PrivateKey, authSecret: Data
    ) throws -> Data {
        let bytes = [UInt8](body)
        guard bytes.count > 21 else { throw Malformed() }
        let keyLength = Int(bytes[20])
        guard bytes.count >= 21 + keyLength + 16 + 1 else { throw Malformed() }
        let salt = Data(bytes[0..<16])
        let senderPublic = Data(bytes[21..<(21 + keyLength)])
        let sealedBytes = bytes[(21 + keyLength)...]
        let (key, nonce) = try self.contentKeys(
            secret: privateKey.sharedSecretFromKeyAgreement(
                with: P256.KeyAgreement.PublicKey(x963Representation: senderPublic)),
            recipientPublic: privateKey.publicKey.x963Representation, senderPublic: senderPublic,
            authSecret: authSecret, salt: salt)
        let sealed = try AES.GCM.SealedBox(
            nonce: nonce, ciphertext: Data(sealedBytes.dropLast(16)), tag: Data(sealedBytes.suffix(16)))
        var plaintext = try AES.GCM.open(sealed, using: key)
        // Padding ends at the delimiter: 2 for the last record.
        while let last = plaintext.last, last == 0 { plaintext.removeLast() }
        guard plaintext.last == 2 else { throw Malformed() }
        return plaintext.dropLast()
    }

    /// A body that is not one ``encrypt(_:for:senderKey:salt:)`` makes, or keys that are not a subscription's.
    public struct Malformed: Error {
        public init() {}
    }

    /// ``encrypt(_:for:senderKey:salt:)`` for a stored subscription, its keys as the browser gave them.
    public static func encrypt(_ plaintext: Data, for subscription: PushSubscription) throws -> Data {
        guard let point = Data(base64URL: subscription.p256dh), let auth = Data(base64URL: subscription.auth) else {
            throw Malformed()
        }
        return try self.encrypt(
            plaintext,
            for: Recipient(publicKey: try P256.KeyAgreement.PublicKey(x963Representation: point), authSecret: auth))
    }

    /// RFC 8291 §3.4: the key material from the agreement and the auth secret, then RFC 8188 §2.2: the record's key
    /// and nonce from it and the salt.
    private static func contentKeys(
        secret: SharedSecret, recipientPublic: Data, senderPublic: Data, authSecret: Data, salt: Data
    ) throws -> (SymmetricKey, AES.GCM.Nonce) {
        let keyInfo = Data("WebPush: info".utf8) + [0] + recipientPublic + senderPublic
        let material = secret.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: authSecret, sharedInfo: keyInfo, outputByteCount: 32)
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: material, salt: salt, info: Data("Content-Encoding: aes128gcm".utf8) + [0],
            outputByteCount: 16)
        let nonce = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: material, salt: salt, info: Data("Content-Encoding: nonce".utf8) + [0],
            outputByteCount: 12)
        return (key, try AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) }))
    }
}

extension Data {
    /// Base64url without padding, as Web Push writes keys and secrets (RFC 8291, RFC 8292).
    public var base64URL: String {
        self.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Reads base64url, padded or not; `nil` for anything else.
    public init?(base64URL text: String) {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        self.init(base64Encoded: standard)
    }
}
