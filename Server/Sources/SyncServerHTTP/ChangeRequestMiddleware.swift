import Hummingbird

/// Requires a request that changes data (POST, PUT, PATCH, DELETE) to be
/// sent as `application/json`, unless the server requires a bearer token
/// (which ``AuthenticationMiddleware`` checks). A page of another site can send a
/// form or a text POST without asking, but not a JSON one nor a token:
/// this is the defence against cross-site requests.
struct ChangeRequestMiddleware<Context: RequestContext>: RouterMiddleware {
    let requiresBearerToken: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if !requiresBearerToken, [.post, .put, .patch, .delete].contains(request.method), !request.declaresJSONBody {
            throw APIError(.unsupportedMediaType, "a request that changes data must be sent with 'Content-Type: application/json'")
        }
        return try await next(request, context)
    }
}
