import ChatCore
import Crypto
import Foundation
import Testing

@Suite("Web Push: message encryption (RFC 8291) and VAPID (RFC 8292)")
struct WebPushTests {
    /// RFC 8291 Appendix A, every value as the RFC prints it.
    enum Example {
        static let plaintext = "When I grow up, I want to be a watermelon"
        static let senderPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
        static let recipientPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
        static let recipientPublic =
            "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
        static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"
        static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
        static let body =
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    }

    static func bytes(_ text: String) throws -> Data { try #require(Data(base64URL: text)) }

    @Test("the RFC's example encrypts to the RFC's body, byte for byte, and decrypts back")
    func rfcExample() throws {
        let recipient = WebPushEncryption.Recipient(
            publicKey: try P256.KeyAgreement.PublicKey(x963Representation: Self.bytes(Example.recipientPublic)),
            authSecret: try Self.bytes(Example.authSecret))
        let body = try WebPushEncryption.encrypt(
            Data(Example.plaintext.utf8), for: recipient,
            senderKey: try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.bytes(Example.senderPrivate)),
            salt: try Self.bytes(Example.salt))
        #expect(body.base64URL == Example.body)
        let opened = try WebPushEncryption.decrypt(
            try Self.bytes(Example.body),
            privateKey: try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.bytes(Example.recipientPrivate)),
            authSecret: try Self.bytes(Example.authSecret))
        #expect(String(decoding: opened, as: UTF8.self) == Example.plaintext)
    }

    @Test("a fresh key and salt each time: two bodies of one message differ, both open; a tampered body does not")
    func freshEachTime() throws {
        let browser = P256.KeyAgreement.PrivateKey()
        let auth = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        let recipient = WebPushEncryption.Recipient(publicKey: browser.publicKey, authSecret: auth)
        let first = try WebPushEncryption.encrypt(Data("hi".utf8), for: recipient)
        let second = try WebPushEncryption.encrypt(Data("hi".utf8), for: recipient)
        #expect(first != second)
        for body in [first, second] {
            #expect(try WebPushEncryption.decrypt(body, privateKey: browser, authSecret: auth) == Data("hi".utf8))
        }
        var tampered = first
        tampered[tampered.count - 1] ^= 1
        #expect(throws: (any Error).self) {
            try WebPushEncryption.decrypt(tampered, privateKey: browser, authSecret: auth)
        }
    }

    @Test("the VAPID header: an ES256 JWT for the push service's origin, valid 12 hours, with the public key")
    func vapidToken() throws {
        let vapid = VAPID(key: P256.Signing.PrivateKey(), subject: "mailto:ops@example.org")
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let header = try vapid.authorization(
            for: try #require(URL(string: "https://push.example.net:8443/send/abc?x=1")), now: now)
        let parts = header.split(separator: " ")
        #expect(parts.first == "vapid" && header.hasSuffix("k=\(vapid.publicKey)"))
        let token = String(try #require(parts.dropFirst().first)).dropFirst(2).dropLast()
        let pieces = token.split(separator: ".").map(String.init)
        #expect(pieces.count == 3)
        struct Claims: Decodable {
            let aud: String
            let exp: Int
            let sub: String
        }
        let claims = try JSONDecoder().decode(Claims.self, from: Self.bytes(pieces[1]))
        #expect(claims.aud == "https://push.example.net:8443" && claims.sub == "mailto:ops@example.org")
        #expect(claims.exp == 1_795_000_000 + 12 * 3600)
        #expect(String(decoding: try Self.bytes(pieces[0]), as: UTF8.self) == #"{"typ":"JWT","alg":"ES256"}"#)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: Self.bytes(pieces[2]))
        let publicKey = try P256.Signing.PublicKey(x963Representation: Self.bytes(vapid.publicKey))
        #expect(publicKey.isValidSignature(signature, for: Data("\(pieces[0]).\(pieces[1])".utf8)))
    }
}
