import ChatCore
import Foundation
import Testing

@Suite("Outbound requests: https to public addresses, anything to the allowed ones")
struct OutboundPolicyTests {
    @Test("address blocks parse and match, IPv4 and IPv6")
    func ranges() throws {
        let block = try #require(AddressRange("10.1.0.0/16"))
        #expect(block.contains([10, 1, 200, 3]) && !block.contains([10, 2, 0, 1]))
        #expect(AddressRange("2001:db8::/32")?.description == "2001:db8:0:0:0:0:0:0/32")
        #expect(try #require(AddressRange("127.0.0.1")).contains([127, 0, 0, 1]))
        for bad in ["", "10.0.0.0/33", "300.1.1.1", "example.org", "10.0.0.0/x", "::/129"] {
            #expect(AddressRange(bad) == nil, "\(bad)")
        }
    }

    @Test("https on public addresses and names; internal addresses and plain http only when allowed")
    func urls() throws {
        let closed = OutboundPolicy(allowed: [])
        let loopback = OutboundPolicy(allowed: [try #require(AddressRange("127.0.0.0/8"))])
        func url(_ text: String) throws -> URL { try #require(URL(string: text)) }
        #expect(closed.allows(try url("https://fcm.googleapis.com/fcm/send/abc")))
        #expect(closed.allows(try url("https://93.184.216.34/push")))
        for refused in [
            "http://fcm.googleapis.com/x", "https://127.0.0.1:9000/x", "https://localhost/x", "https://10.0.0.7/x",
            "https://[::1]/x", "https://[fe80::1]/x", "https://192.168.1.1/x", "https://169.254.169.254/latest",
            "ftp://example.org/x", "https:///nohost", "https://printer.localhost/x",
        ] {
            #expect(!closed.allows(try url(refused)), "\(refused)")
        }
        #expect(loopback.allows(try url("http://127.0.0.1:9000/push/1")))
        #expect(loopback.allows(try url("https://localhost:9000/push/1")))
        #expect(!loopback.allows(try url("http://10.0.0.7/x")))
    }
}
