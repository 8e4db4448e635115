import ChatProtocol
import Foundation
import Testing

@Suite("HTTP routes: one typed list, the paths it builds, and PROTOCOL.md")
struct APIRouteTests {
    @Test("a path puts escaped arguments in place of the parameters and leaves out absent query items")
    func paths() {
        #expect(
            APIRoute.history.path("lobby", query: [("limit", "50"), ("before", nil)])
                == "/api/v1/rooms/lobby/messages?limit=50")
        #expect(APIRoute.join.path("a b/c") == "/api/v1/rooms/a%20b%2Fc/join")
        #expect(APIRoute.search.path(query: [("q", "café & tea")]) == "/api/v1/search?q=caf%C3%A9%20%26%20tea")
        #expect(APIRoute.rooms.path() == "/api/v1/rooms")
        #expect(APIRoute.history.description == "GET /api/v1/rooms/:room/messages")
    }

    @Test("every route is listed once, and PROTOCOL.md documents each one")
    func documented() throws {
        #expect(Set(APIRoute.all).count == APIRoute.all.count)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let protocolText = try String(contentsOf: root.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)
        for route in APIRoute.all {
            // PROTOCOL.md writes a parameter as {id}.
            let segments = route.segments.map { $0.hasPrefix(":") ? "{id}" : $0 }
            let documented = "\(route.method.rawValue) /" + (APIRoute.prefix + segments).joined(separator: "/")
            #expect(protocolText.contains(documented), "PROTOCOL.md does not mention \(documented)")
        }
    }
}
