import ChatProtocol
import ChatTestSupport
import Foundation
import NIOHTTP1
import Testing

@Suite("The server answers every APIRoute (ChatProtocol), the paths ChatClient calls")
struct RoutesTests {
    @Test("no route of the list falls through to the catch-all \"No such endpoint.\"")
    func everyRouteIsRegistered() async throws {
        try await withTestServer { server in
            let api = APIClient(baseURL: "http://\(server.host):\(server.httpPort)")
            for route in APIRoute.all {
                let arguments = route.segments.filter { $0.hasPrefix(":") }.map { _ in UUID().uuidString }
                let reply = try await api.send(
                    HTTPMethod(rawValue: route.method.rawValue), route.path(arguments: arguments), bytes: [],
                    contentType: nil)
                let body = String(decoding: reply.body, as: UTF8.self)
                #expect(!body.contains("No such endpoint."), "\(route) is not registered: \(reply.status) \(body)")
            }
            // The catch-all still answers what is not a route.
            let unknown = try await api.send(.GET, "/api/v1/nothing-here", bytes: [], contentType: nil)
            #expect(unknown.status == 404)
            #expect(String(decoding: unknown.body, as: UTF8.self).contains("No such endpoint."))
        }
    }
}
