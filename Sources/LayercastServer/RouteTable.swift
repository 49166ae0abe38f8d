/// Routes by method and path pattern, matched in order. A pattern's `{name}` segment matches any
/// one segment (even an empty one) and hands it to the handler by name.
struct RouteTable<Handler> {
    private struct Route {
        let method: APIRequest.Method
        let segments: [Substring]
        let handler: Handler
    }

    private var routes: [Route] = []

    /// Adds `method pattern`, e.g. `.get, "/api/rooms/{room}/leaderboard"`.
    mutating func add(_ method: APIRequest.Method, _ pattern: String, _ handler: Handler) {
        routes.append(Route(method: method, segments: pattern.split(separator: "/", omittingEmptySubsequences: false), handler: handler))
    }

    /// The first route that `method` and `path` match, with its parameters.
    func match(_ method: APIRequest.Method, _ path: String) -> (handler: Handler, parameters: [String: String])? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        for route in routes where route.method == method && route.segments.count == parts.count {
            var parameters: [String: String] = [:]
            let matches = zip(route.segments, parts).allSatisfy { pattern, part in
                if pattern.hasPrefix("{"), pattern.hasSuffix("}") {
                    parameters[String(pattern.dropFirst().dropLast())] = String(part)
                    return true
                }
                return pattern == part
            }
            if matches { return (route.handler, parameters) }
        }
        return nil
    }
}
