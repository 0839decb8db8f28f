import Hummingbird
import PlayersOnServer

extension SyncServerAPI {
    /// `POST /demo/refresh` (with `--demo` only, on a server of Players'
    /// table): the demo's random changes; `{"version":"…"}`, the counter
    /// after them.
    @Sendable func refreshDemo(_ request: Request, _ context: SyncRequestContext) async throws -> [String: String] {
        guard let demo else { throw APIError.notFound("this server does not serve the demo") }
        return ["version": String(try await demo.refresh())]
    }
}
