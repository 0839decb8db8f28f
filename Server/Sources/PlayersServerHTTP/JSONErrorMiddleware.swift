import Hummingbird

/// Answers Hummingbird's own errors (a path that does not exist, a
/// request it could not read) as JSON too, like every error of the API.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            let message = error.status == .notFound
                ? "there is nothing at this path: see Docs/Server.md for the endpoints"
                : error.body ?? error.status.reasonPhrase
            throw APIError(error.status, message, headers: error.headers)
        }
    }
}
