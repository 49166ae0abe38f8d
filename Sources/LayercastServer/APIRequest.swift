/// One HTTP API request as a route sees it: parsed off its connection, so that a route is a
/// function of it and can be called, and tested, without one.
struct APIRequest {
    enum Method: String { case get = "GET", post = "POST" }

    let method: Method
    /// The path without its query, e.g. `/api/rooms/lobby/leaderboard`.
    let path: String
    /// The URL query, `name → value` (URL-decoded).
    var query: [String: String] = [:]
    var authorization: String?
    /// A POST's body; empty when it was over `PendingPost.maxBody`, which `oversize` says.
    var body: [UInt8] = []
    var oversize = false
    /// The route pattern's `{name}` segments, filled in by `RouteTable`.
    var parameters: [String: String] = [:]

    init(_ method: Method, _ path: String, query: [String: String] = [:], authorization: String? = nil,
         body: [UInt8] = [], oversize: Bool = false) {
        self.method = method
        self.path = path
        self.query = query
        self.authorization = authorization
        self.body = body
        self.oversize = oversize
    }

    /// A pattern segment by name; empty when the route has none of that name.
    subscript(_ name: String) -> String { parameters[name] ?? "" }

    /// `?limit=N`, clamped to 1…100; `value` when absent or not a number.
    func limit(default value: Int) -> Int {
        min(100, max(1, query["limit"].flatMap { Int($0) } ?? value))
    }
}
