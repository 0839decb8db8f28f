import Foundation

/// A server's answer that ends a sync: compare with the static constants
/// (`error == .unauthorized`). Descriptions are safe to log; the server's
/// own message is shown shortened, its control characters escaped
/// (``PrintableText``).
public struct SyncError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case unauthorized, forbidden, serverBusy, serverError, requestRefused, unexpectedStatus, cursorForgotten
        case tooLarge, deadlineExceeded, otherServer, inconsistentServer, identityRefused
    }

    private let code: Code
    /// The HTTP status, when there was one.
    public let status: Int?
    /// The server's `error.message`, or `Retry-After` for a busy server.
    public let detail: String?
    /// How long a busy server asked to wait (`Retry-After`), in seconds.
    public let retryAfter: TimeInterval?

    private init(_ code: Code, status: Int? = nil, detail: String? = nil, retryAfter: TimeInterval? = nil) {
        self.code = code
        self.status = status
        self.detail = detail
        self.retryAfter = retryAfter
    }

    /// 401: no token, or a wrong one.
    public static let unauthorized = SyncError(.unauthorized)
    /// 403: the token may not read this.
    public static let forbidden = SyncError(.forbidden)
    /// 429 or 503 after the retries, or with a `Retry-After` longer than
    /// the retry policy allows.
    public static let serverBusy = SyncError(.serverBusy)
    /// 5xx after the retries.
    public static let serverError = SyncError(.serverError)
    /// Another 4xx.
    public static let requestRefused = SyncError(.requestRefused)
    /// A status the protocol does not use (a 1xx, 2xx other than 200, or
    /// an unfollowed 3xx).
    public static let unexpectedStatus = SyncError(.unexpectedStatus)
    /// 410 for the cursor of the snapshot just fetched.
    public static let cursorForgotten = SyncError(.cursorForgotten)

    /// The answers of one sync exceed ``SyncClient/maximumPages`` or
    /// ``SyncClient/maximumBytes``; `detail` says which.
    public static let tooLarge = SyncError(.tooLarge)
    /// Fetching took longer than ``SyncClient/maximumDuration``; `detail`
    /// is the limit.
    public static let deadlineExceeded = SyncError(.deadlineExceeded)
    /// The server holds another database than the one the store synced
    /// with (a snapshot of another identity, or 412 to a push that named
    /// the known one): nothing was pushed or merged.
    /// ``SyncClient/allowsOtherServer`` accepts it.
    public static let otherServer = SyncError(.otherServer)
    /// The store still differs from the server's digest after the snapshot
    /// that was to repair it: the server's digest does not describe its
    /// own snapshot. The snapshot was merged; `detail` gives the digests
    /// of the tables that still differ, the store's and the server's
    /// (``SyncDivergence``).
    public static let inconsistentServer = SyncError(.inconsistentServer)

    /// 409 to the device's identity key: the server keeps another one for
    /// the token's user, so the device's recovery key is not theirs.
    /// Nothing was pushed or pulled.
    public static let identityRefused = SyncError(.identityRefused)

    /// The same error, with a detail and no HTTP status.
    public func with(detail: String) -> SyncError {
        SyncError(code, status: nil, detail: detail)
    }

    /// The same error, for an answer; a busy server's with how long it
    /// asked to wait.
    public func with(status: Int, detail: String?, retryAfter: TimeInterval? = nil) -> SyncError {
        SyncError(code, status: status, detail: detail, retryAfter: retryAfter)
    }

    public static func == (lhs: SyncError, rhs: SyncError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String {
        let answer = "HTTP \(status.map(String.init) ?? "?")" + (detail.map { ": \($0)" } ?? "")
        switch code {
        case .unauthorized:
            return "the server refused the request without a valid token (\(answer)): give the server's bearer token"
        case .forbidden:
            return "the server does not allow this token to read this collection (\(answer)): use a token that may"
        case .serverBusy:
            return "the server is busy (\(answer)): try again later"
        case .serverError:
            return "the server failed (\(answer)): try again later, or tell its administrator"
        case .requestRefused:
            return "the server refused the request (\(answer)): check the URL"
        case .unexpectedStatus:
            return "the server gave an answer the sync protocol does not use (\(answer)): check the URL"
        case .cursorForgotten:
            return "the server forgot the snapshot's cursor while it was fetched (\(answer)): try again"
        case .tooLarge:
            return "the server sent more than one sync may hold (\(detail ?? "over the limit")): check the URL, or allow a larger sync"
        case .deadlineExceeded:
            return "the sync did not finish within its deadline (\(detail ?? "over the limit")): try again later, or allow it longer"
        case .otherServer:
            let reason = status == nil ? detail ?? "another identity" : answer
            return "the server holds another database than the one this one synced with (\(reason)): nothing was pushed or merged"
        case .inconsistentServer:
            return "the server's snapshot does not match its own digest (\(detail ?? "")): tell the server's administrator"
        case .identityRefused:
            return "the server keeps another identity key for this token's user (\(answer)): this device's recovery key is not theirs, "
                + "so nothing was pushed or pulled; make the device again with the recovery key file of the user's first device"
        }
    }
}
