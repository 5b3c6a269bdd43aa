import HTTPTypes
import Hummingbird

/// Which methods the API has for a path, so a request with another method on a known path is told
/// `405 Method Not Allowed` and the `Allow`ed ones, rather than a 404 that says the path does not exist.
struct AllowedMethods: Sendable {
    private let routes: [(path: RouterPath, method: HTTPRequest.Method)]

    init(_ routes: [Router<MusterRequestContext>.RouteDescription]) {
        self.routes = routes.map { ($0.path, $0.method) }
    }

    /// The methods of the routes that match `path`, sorted by name; empty when no route does.
    func methods(for path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/")
        let methods = Set(routes.filter { Self.matches($0.path, segments) }.map(\.method.rawValue))
        return methods.sorted().compactMap { HTTPRequest.Method($0) }
    }

    /// Matches as the router does: each element one segment, `**` the rest.
    private static func matches(_ pattern: RouterPath, _ segments: [Substring]) -> Bool {
        var index = 0
        for element in pattern.components {
            if element == .recursiveWildcard { return true }
            guard index < segments.count, element ~= segments[index] else { return false }
            index += 1
        }
        return index == segments.count
    }
}
