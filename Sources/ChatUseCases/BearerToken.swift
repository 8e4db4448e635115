import ChatCore
import Crypto
import Foundation

/// Bearer tokens: 256 random bits, given to the client once and stored only as their SHA-256.
public enum BearerToken {
    /// A new token, base64url without padding (43 characters).
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// What is stored and looked up: the hex SHA-256 of the token.
    public static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).hex
    }
}
