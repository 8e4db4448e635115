import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A throwaway certificate authority and a server certificate it signed for `localhost` and `127.0.0.1`, written as
/// PEM files for `--tls-cert` and `--tls-key`, and the client TLS settings that trust that authority only.
public struct TestCertificates: Sendable {
    /// The server's certificate (PEM).
    public let certificatePath: String
    /// The server's private key (PEM, PKCS #8).
    public let keyPath: String
    /// The authority's certificate (PEM), the only root a client built by ``clientConfiguration`` trusts.
    public let authorityPEM: String

    /// Makes a new authority and server certificate under `directory` (`server.pem`, `server-key.pem`), valid for an
    /// hour either side of now; `name` tells authorities apart.
    public static func make(in directory: String, name: String = "SwiftChat test CA") throws -> TestCertificates {
        let now = Date()
        let authorityKey = P256.Signing.PrivateKey()
        let authorityName = try DistinguishedName { CommonName(name) }
        let authority = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(authorityKey.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 3600, issuer: authorityName, subject: authorityName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: .init(authorityKey))
        let serverKey = P256.Signing.PrivateKey()
        let server = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(serverKey.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 3600, issuer: authorityName,
            subject: try DistinguishedName { CommonName("localhost") }, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                SubjectAlternativeNames([
                    .dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                ])
                try ExtendedKeyUsage([.serverAuth])
            },
            issuerPrivateKey: .init(authorityKey))
        let certificatePath = URL(fileURLWithPath: directory).appendingPathComponent("server.pem").path
        let keyPath = URL(fileURLWithPath: directory).appendingPathComponent("server-key.pem").path
        try server.serializeAsPEM().pemString.write(toFile: certificatePath, atomically: true, encoding: .utf8)
        try serverKey.pemRepresentation.write(toFile: keyPath, atomically: true, encoding: .utf8)
        return TestCertificates(
            certificatePath: certificatePath, keyPath: keyPath, authorityPEM: try authority.serializeAsPEM().pemString)
    }

    /// Client settings that trust this authority and nothing else.
    public func clientConfiguration() throws -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(self.authorityPEM.utf8)))
        return configuration
    }

    /// A client context that trusts this authority only.
    public func clientContext() throws -> NIOSSLContext {
        try NIOSSLContext(configuration: self.clientConfiguration())
    }
}
