import ChatProtocol
import Vapor

extension RoutesBuilder {
    /// Registers `route` (relative to the `/api/v1` group this is called on) with its method and path from
    /// ChatProtocol, so the server answers exactly the paths clients call.
    @discardableResult
    func on<Response: AsyncResponseEncodable>(
        _ route: APIRoute, body: HTTPBodyStreamStrategy = .collect,
        use handler: @Sendable @escaping (Request) async throws -> Response
    ) -> Route {
        let path = route.segments.map { segment in
            segment.hasPrefix(":") ? PathComponent.parameter(String(segment.dropFirst())) : .constant(segment)
        }
        return self.on(HTTPMethod(rawValue: route.method.rawValue), path, body: body, use: handler)
    }
}
