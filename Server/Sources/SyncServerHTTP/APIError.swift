import Foundation
import Hummingbird
import SyncServerAuth

/// An error answered as JSON, `{"error": {"message": "…"}}`, with its
/// status. Messages are safe to show: never a token, a passphrase or a
/// stack trace.
public struct APIError: HTTPResponseError, Sendable {
    public let status: HTTPResponse.Status
    public let message: String
    /// Extra members of the error object (`"snapshot"` for 410).
    let extra: [String: String]
    /// Extra headers (`Allow` for 405).
    let headers: HTTPFields

    init(_ status: HTTPResponse.Status, _ message: String, extra: [String: String] = [:], headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.extra = extra
        self.headers = headers
    }

    /// The error object, encoded by the API's encoder whatever the
    /// context (middlewares answer errors for any context).
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var object = extra
        object["message"] = message
        var response = try JSONEncoder.api.encode(["error": object], from: request, context: context)
        response.status = status
        response.headers.append(contentsOf: headers)
        return response
    }

    static let unauthorized = APIError(.unauthorized, "missing or wrong bearer token: send 'Authorization: Bearer TOKEN'")
    /// 401 for a signed token refused: `reason` says which check failed
    /// (``SyncServerAuth/TokenRefusal``), the message what to do.
    static func tokenRefused(_ refusal: TokenRefusal) -> APIError {
        APIError(.unauthorized, refusal.description, extra: ["reason": refusal.reason],
                 headers: [.wwwAuthenticate: "Bearer error=\"invalid_token\""])
    }
    /// 403: the user's token is valid, and the table's access does not let
    /// them do this.
    static func forbidden(_ message: String) -> APIError { APIError(.forbidden, message) }
    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, message) }
    static func notFound(_ message: String) -> APIError { APIError(.notFound, message) }
    /// 410 for a cursor that no delta answers: `snapshot` links to what
    /// the client takes instead (the first page of `GET /v1/sync/rows`).
    static func gone(_ reason: GoneCursor) -> APIError {
        let why = switch reason {
        case .forgotten: "the cursor is older than the tombstone retention, later than this server's counter, "
            + "or from before the user's memberships changed"
        case .otherUser: "the cursor was issued to another user"
        case .otherServer: "the cursor is from another server's database"
        case .earlierEpoch: "the cursor is from before this server's database was restored from a backup (another epoch)"
        case .olderForm: "the cursor is of an older form, without the server's identity and epoch"
        }
        return APIError(.gone, "\(why): take a snapshot", extra: ["snapshot": SyncServerAPI.syncRowsPath])
    }

    /// The store's database cannot be reached now: clients try again after
    /// `Retry-After`.
    static let storeUnavailable = APIError(
        .serviceUnavailable, "the server's database cannot be reached now: try again later",
        headers: [.retryAfter: String(retryAfterSeconds)])

    /// The `Retry-After` of ``storeUnavailable``, in seconds.
    static let retryAfterSeconds = 5

    /// Why a cursor gets 410.
    enum GoneCursor {
        case forgotten, otherServer, earlierEpoch, olderForm, otherUser
    }
}
