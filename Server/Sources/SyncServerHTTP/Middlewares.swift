import Hummingbird
import SyncServerAuth

/// Requires a bearer token when the server has one: the shared token
/// (``ServerConfiguration/token``), compared in a time that does not
/// depend on the token sent; or a signed one (``ServerConfiguration/tokenVerifier``),
/// whose identity goes in the context. A token refused is answered 401
/// with the reason (``APIError/tokenRefused(_:)``) and counted in
/// `/metrics` by it; the token itself is never logged nor answered.
struct AuthenticationMiddleware: RouterMiddleware {
    let configuration: ServerConfiguration
    let metrics: ServerMetrics

    func handle(_ request: Request, context: SyncRequestContext,
                next: (Request, SyncRequestContext) async throws -> Response) async throws -> Response {
        if let verifier = configuration.tokenVerifier {
            var context = context
            do {
                context.identity = try await verifier.identity(bearing: Self.bearerToken(of: request))
            } catch {
                metrics.tokenRefused(error)
                throw APIError.tokenRefused(error)
            }
            return try await next(request, context)
        }
        if let token = configuration.token {
            guard let sent = Self.bearerToken(of: request), constantTimeEqual(Array(sent.utf8), Array(token.utf8)) else {
                throw APIError.unauthorized
            }
        }
        return try await next(request, context)
    }

    /// The token of `Authorization: Bearer TOKEN`, if the request has one.
    static func bearerToken(of request: Request) -> String? {
        let header = request.headers[.authorization] ?? ""
        let prefix = "Bearer "
        guard header.hasPrefix(prefix) else { return nil }
        return String(header.dropFirst(prefix.count))
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
