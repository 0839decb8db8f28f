import Hummingbird

/// The methods that each path of the API takes, so that a request with
/// another method gets 405 and an `Allow` header rather than a 404:
/// Hummingbird's router tells only that nothing matched.
struct RouteMethods: Sendable {
    /// Path templates, split into segments (`:uuid` matches any one), with
    /// their methods.
    private var routes: [(segments: [Substring], methods: [HTTPRequest.Method])] = []

    /// Records that `template` (`/v1/rows/:table/:id`) takes `methods`; a
    /// path that takes GET takes HEAD too.
    mutating func add(_ template: String, _ methods: [HTTPRequest.Method]) {
        var methods = methods
        if methods.contains(.get) && !methods.contains(.head) {
            methods.insert(.head, at: methods.firstIndex(of: .get)! + 1)
        }
        routes.append((Self.segments(template), methods))
    }

    /// The `Allow` header of `path`, such as `GET, HEAD, POST`; nil for a
    /// path that no route has.
    func allowHeader(forPath path: String) -> String? {
        let segments = Self.segments(path)
        guard let route = routes.first(where: { route in
            route.segments.count == segments.count
                && zip(route.segments, segments).allSatisfy { template, segment in template.hasPrefix(":") || template == segment }
        }) else { return nil }
        return route.methods.map(\.rawValue).joined(separator: ", ")
    }

    /// The segments of a path, as the router splits it (empty ones
    /// dropped: `/v1/sync/rows/` is `/v1/sync/rows`).
    private static func segments(_ path: String) -> [Substring] {
        path.split(separator: "/")
    }
}
