import Hummingbird

/// Answers Hummingbird's own errors (a path that does not exist, a
/// request it could not read) as JSON too, like every error of the API;
/// a known path asked with a method it does not take gets 405 with the
/// methods it takes in `Allow`.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let routes: RouteMethods

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            if error.status == .notFound, let allowed = routes.allowHeader(forPath: request.uri.path) {
                throw APIError(.methodNotAllowed, "\(request.method.rawValue) is not allowed here: use \(allowed)", headers: [.allow: allowed])
            }
            let message = error.status == .notFound
                ? "there is nothing at this path: see Docs/Server.md for the endpoints"
                : error.body ?? error.status.reasonPhrase
            throw APIError(error.status, message, headers: error.headers)
        }
    }
}
