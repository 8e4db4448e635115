import NIOConcurrencyHelpers
import NIOSSL

/// The server's certificate chain and private key (`--tls-cert`, `--tls-key`, PEM files) as the TLS context each new
/// connection gets.
///
/// ``reload()`` (on SIGHUP) reads both files again and swaps the context: connections already open keep the one they
/// began with, new handshakes get the new one, so renewing a certificate drops no one. Files that do not load leave
/// the old context in place.
final class TLSCertificates: Sendable {
    let certificatePath: String
    let keyPath: String
    private let current: NIOLockedValueBox<NIOSSLContext>

    /// Loads both files; throws a ``TLSLoadError`` that names the setting and the file.
    init(certificatePath: String, keyPath: String) throws {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        self.current = NIOLockedValueBox(try Self.context(certificatePath: certificatePath, keyPath: keyPath))
    }

    /// The context for a connection accepted now.
    var context: NIOSSLContext { self.current.withLockedValue { $0 } }

    /// Reads the files again; on success new connections use them.
    func reload() throws {
        let context = try Self.context(certificatePath: self.certificatePath, keyPath: self.keyPath)
        self.current.withLockedValue { $0 = context }
    }

    private static func context(certificatePath: String, keyPath: String) throws -> NIOSSLContext {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificatePath)
        } catch {
            throw TLSLoadError(
                setting: "--tls-cert", path: certificatePath, problem: "no PEM certificate could be read (\(error))")
        }
        guard !chain.isEmpty else {
            throw TLSLoadError(setting: "--tls-cert", path: certificatePath, problem: "the file holds no certificate")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: keyPath, format: .pem)
        } catch {
            throw TLSLoadError(
                setting: "--tls-key", path: keyPath, problem: "no PEM private key could be read (\(error))")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw TLSLoadError(
                setting: "--tls-key", path: keyPath,
                problem: "the key does not belong to the certificate in \(certificatePath) (\(error))")
        }
    }
}

/// Why the certificate or key could not be used; it names the setting and the file, never the key's contents.
struct TLSLoadError: Error, CustomStringConvertible {
    let setting: String
    let path: String
    let problem: String

    var description: String { "\(self.setting) \(self.path): \(self.problem)" }
}
