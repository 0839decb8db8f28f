import Hummingbird

/// Refuses (421) a request whose `Host` is not a name of this server
/// (``ServerConfiguration/allowsHost(_:)``): the defence against DNS
/// rebinding, where a page of another site reaches a loopback server.
struct AllowedHostMiddleware<Context: RequestContext>: RouterMiddleware {
    let configuration: ServerConfiguration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard configuration.allowsHost(request.head.authority) else {
            throw APIError(.misdirectedRequest, "this server does not answer to that Host name: use its address, or start it with --allowed-host NAME")
        }
        return try await next(request, context)
    }
}
