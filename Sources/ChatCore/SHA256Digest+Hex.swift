import Crypto
import Foundation

extension SHA256Digest {
    /// Lower-case hex, as tokens' hashes and attachments' content names are stored.
    public var hex: String {
        self.map { String(format: "%02x", $0) }.joined()
    }
}
