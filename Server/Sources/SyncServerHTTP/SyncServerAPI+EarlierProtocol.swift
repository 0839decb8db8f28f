import Hummingbird

/// The endpoints of Players' protocol before the sync engine
/// (`/v1/players`, `/v1/players/{uuid}`, `/v1/changes`), which the server
/// no longer speaks: every request to them gets 410 and a sentence that
/// says what to install, never a 404 that looks like a wrong URL. A
/// database that a client of that release synced migrates in place when
/// the current `players` opens it.
extension SyncServerAPI {
    static let earlierProtocolPaths = ["/players", "/players/:uuid", "/changes"]
    static let earlierProtocolMethods: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete]

    /// Answers a request of the earlier protocol: 410.
    @Sendable func answerEarlierProtocol(_ request: Request, _ context: SyncRequestContext) async throws -> Response {
        throw APIError.earlierProtocol
    }
}

extension APIError {
    /// 410 for a request of Players' protocol before the sync engine.
    static let earlierProtocol = APIError(
        .gone,
        "this server speaks the sync engine's protocol (/v1/sync/rows, /v1/sync/changes, /v1/rows), not the protocol of "
            + "players before it: install the current players (make install), whose 'players sync' migrates the database in place")
}
