import Hummingbird

/// Requires `Authorization: Bearer TOKEN` when a token is configured. The
/// comparison takes the same time whatever the token sent.
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token else { return try await next(request, context) }
        let header = request.headers[.authorization] ?? ""
        let prefix = "Bearer "
        guard header.hasPrefix(prefix), constantTimeEqual(Array(header.utf8.dropFirst(prefix.utf8.count)), Array(token.utf8)) else {
            throw APIError.unauthorized
        }
        return try await next(request, context)
    }
}

/// Whether two byte strings are equal, in a time that depends only on
/// their lengths.
func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    var difference = UInt8(lhs.count == rhs.count ? 0 : 1)
    for index in 0..<max(lhs.count, rhs.count) {
        let left = index < lhs.count ? lhs[index] : 0
        let right = index < rhs.count ? rhs[index] : 0
        difference |= left ^ right
    }
    return difference == 0
}
