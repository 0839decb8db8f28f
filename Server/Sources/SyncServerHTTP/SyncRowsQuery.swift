import Foundation
import Hummingbird
import SyncSchema
import SyncServer

/// The query of `GET /v1/sync/rows`, checked: a page of the snapshot of
/// the declared tables, or, with `since`, a page of the delta after that
/// cursor; of the tables that `tables` names (a device's), or of every
/// one.
enum SyncRowsQuery: Equatable {
    /// `after` (`TABLE.ID`): the last row of the previous page; `cursor`
    /// (`at`): the cursor of the snapshot's first page, carried by all of
    /// its pages.
    case snapshot(limit: Int, after: SyncRowKey?, cursor: SyncCursor?, tables: SyncTableFilter?)
    /// `wait`: how long to hold the request when the delta is empty, in
    /// seconds (a long-poll; 0 answers at once).
    case delta(since: SyncCursor, limit: Int, wait: Int, tables: SyncTableFilter?)

    /// The longest `wait` of a long-poll, in seconds.
    static let maximumWait = 60

    /// Checks `limit` and `tables`, then `since` and `wait`, or `after` and
    /// `at`: the first bad one is a 400 that says what it must be.
    init(_ query: Parameters, schema: SyncSchema, configuration: ServerConfiguration) throws {
        let limit = try Self.pageSize(query.get("limit"), configuration: configuration)
        let tables = try query.get("tables").map { try Self.tables($0, schema: schema) }
        let wait = try Self.wait(query)
        if let since = query.get("since") {
            self = .delta(since: try Self.cursor(since, name: "since"), limit: limit, wait: wait ?? 0, tables: tables)
            return
        }
        if wait != nil { throw Self.waitWithoutSince }
        let after = try query.get("after").map { text -> SyncRowKey in
            let parts = text.split(separator: ".", maxSplits: 1)
            guard parts.count == 2, let id = UUID(parsing: String(parts[1])) else {
                throw APIError.badRequest("'after' must be the table and id of a row, TABLE.ID, as a page's 'next' gives them")
            }
            return SyncRowKey(table: String(parts[0]), id: id)
        }
        let cursor = try query.get("at").map { try Self.cursor($0, name: "at") }
        self = .snapshot(limit: limit, after: after, cursor: cursor, tables: tables)
    }

    /// `wait`, checked: the seconds of a long-poll, from 0 to
    /// ``maximumWait``; nil when the query has none.
    private static func wait(_ query: Parameters) throws -> Int? {
        try query.get("wait").map { text -> Int in
            guard let wait = Int(text), (0...Self.maximumWait).contains(wait) else {
                throw APIError.badRequest("'wait' must be an integer from 0 to \(Self.maximumWait)")
            }
            return wait
        }
    }

    /// A `wait` without `since`.
    private static let waitWithoutSince = APIError.badRequest("'wait' needs 'since': only a delta can wait for changes")

    /// A cursor of this server's; the bare counter of an older server gets
    /// 410, so that its client takes a snapshot.
    private static func cursor(_ text: String, name: String) throws -> SyncCursor {
        do {
            return try SyncCursor(text)
        } catch {
            if SyncCursor.isOlderForm(text) { throw APIError.gone(.olderForm) }
            throw APIError.badRequest("'\(name)' must be a cursor returned by this server")
        }
    }

    private static func pageSize(_ text: String?, configuration: ServerConfiguration) throws -> Int {
        guard let text else { return configuration.defaultPageSize }
        guard let limit = Int(text), (1...configuration.maximumPageSize).contains(limit) else {
            throw APIError.badRequest("'limit' must be an integer from 1 to \(configuration.maximumPageSize)")
        }
        return limit
    }

    /// `tables`: declared tables, separated by commas.
    private static func tables(_ text: String, schema: SyncSchema) throws -> SyncTableFilter {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !text.isEmpty else { throw APIError.badRequest("'tables' must name at least one table, separated by commas") }
        for name in names where schema.table(name) == nil {
            throw APIError.badRequest("'tables' names \(name.debugDescription), which is not a table this server syncs: update its declaration first")
        }
        return SyncTableFilter(names)
    }
}
