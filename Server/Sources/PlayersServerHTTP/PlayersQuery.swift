import Foundation
import Hummingbird
import PlayersProtocol

/// The query of `GET /v1/players`, checked: a page of the snapshot, or,
/// with `since`, a page of the delta after that cursor.
enum PlayersQuery: Equatable {
    /// `after`: the last uuid of the previous page; `cursor` (`at`): the
    /// cursor of the snapshot's first page, carried by all of its pages.
    case snapshot(limit: Int, after: UUID?, cursor: PlayersCursor?)
    /// `wait`: how long to hold the request when the delta is empty, in
    /// seconds (a long-poll; 0 answers at once).
    case delta(since: PlayersCursor, limit: Int, wait: Int)

    /// The longest `wait` of a long-poll, in seconds.
    static let maximumWait = 60

    /// Checks `limit`, then `since` and `wait`, or `after` and `at`: the
    /// first bad one is a 400 that says what it must be.
    init(_ query: Parameters, configuration: ServerConfiguration) throws {
        let limit = try Self.pageSize(query.get("limit"), configuration: configuration)
        let wait = try Self.wait(query)
        if let sinceText = query.get("since") {
            self = .delta(since: try Self.cursor(sinceText, name: "since"), limit: limit, wait: wait ?? 0)
            return
        }
        if wait != nil { throw Self.waitWithoutSince }
        let after = try query.get("after").map { text -> UUID in
            guard let uuid = UUID(uuidString: text) else { throw APIError.badRequest("'after' must be a player uuid") }
            return uuid
        }
        let cursor = try query.get("at").map { try Self.cursor($0, name: "at") }
        self = .snapshot(limit: limit, after: after, cursor: cursor)
    }

    /// `wait`, checked: the seconds of a long-poll, from 0 to
    /// ``maximumWait``; nil when the query has none. The players' deltas
    /// and the engine's read it alike.
    static func wait(_ query: Parameters) throws -> Int? {
        try query.get("wait").map { text -> Int in
            guard let wait = Int(text), (0...Self.maximumWait).contains(wait) else {
                throw APIError.badRequest("'wait' must be an integer from 0 to \(Self.maximumWait)")
            }
            return wait
        }
    }

    /// A `wait` without `since`.
    static let waitWithoutSince = APIError.badRequest("'wait' needs 'since': only a delta can wait for changes")

    /// A cursor of this protocol; the bare counter of an older server gets
    /// 410, so that its client takes a snapshot.
    static func cursor(_ text: String, name: String) throws -> PlayersCursor {
        do {
            return try PlayersCursor(text)
        } catch {
            if PlayersCursor.isOlderForm(text) { throw APIError.gone(.olderForm) }
            throw APIError.badRequest("'\(name)' must be a cursor returned by this server")
        }
    }

    static func pageSize(_ text: String?, configuration: ServerConfiguration) throws -> Int {
        guard let text else { return configuration.defaultPageSize }
        guard let limit = Int(text), (1...configuration.maximumPageSize).contains(limit) else {
            throw APIError.badRequest("'limit' must be an integer from 1 to \(configuration.maximumPageSize)")
        }
        return limit
    }
}
