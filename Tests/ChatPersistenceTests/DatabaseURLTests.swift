import ChatPersistence
import Testing

@Suite("--database-url: libpq's URL forms, and the password never shown")
struct DatabaseURLTests {
    @Test func tcpWithCredentialsAndTLS() throws {
        let url = try DatabaseURL("postgres://chat:s%40cret@db.example:6543/chat?sslmode=require")
        #expect(url.endpoint == .tcp(host: "db.example", port: 6543))
        #expect(url.username == "chat")
        #expect(url.password == "s@cret")
        #expect(url.database == "chat")
        #expect(url.tls == .require)
        #expect(url.description == "postgres://chat:***@db.example:6543/chat?sslmode=require")
        #expect(!url.description.contains("cret"))
    }

    @Test func unixSocketInLibpqForm() throws {
        let url = try DatabaseURL("postgresql:///chat?host=/var/run/postgresql&user=chat")
        #expect(url.endpoint == .unixSocket(directory: "/var/run/postgresql", port: 5432))
        #expect(url.username == "chat")
        #expect(url.password == nil)
        #expect(url.tls == .disable)
        #expect(url.description == "postgres://chat@/chat?host=/var/run/postgresql&port=5432")
    }

    @Test func defaults() throws {
        let url = try DatabaseURL("postgres://chat@localhost/chat")
        #expect(url.endpoint == .tcp(host: "localhost", port: 5432))
        #expect(url.tls == .prefer)
        #expect(try DatabaseURL("postgres://chat@h/d?sslmode=verify-full").tls == .verify)
    }

    @Test(
        "refused with a reason, never echoing the password",
        arguments: [
            "mysql://chat:pw@h/d", "postgres://chat:pw@h", "postgres://chat:pw@h/", "postgres://chat:pw@h:0/d",
            "postgres:///d", "postgres://chat:pw@h/d?sslmode=sometimes", "postgres:///d?host=/tmp&sslmode=require",
            "not a url at all",
        ])
    func refused(text: String) {
        #expect {
            try DatabaseURL(text)
        } throws: { error in
            let description = "\(error)"
            return !description.isEmpty && !description.contains("pw")
        }
    }
}
