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
    /// seconds (a long-poll; 0 answers at once), as for the players.
    case delta(since: SyncCursor, limit: Int, wait: Int, tables: SyncTableFilter?)

    /// Checks `limit` and `tables`, then `since` and `wait`, or `after` and
    /// `at`: the first bad one is a 400 that says what it must be.
    init(_ query: Parameters, schema: SyncSchema, configuration: ServerConfiguration) throws {
        let limit = try PlayersQuery.pageSize(query.get("limit"), configuration: configuration)
        let tables = try query.get("tables").map { try Self.tables($0, schema: schema) }
        let wait = try PlayersQuery.wait(query)
        if let since = query.get("since") {
            self = .delta(since: try PlayersQuery.cursor(since, name: "since"), limit: limit, wait: wait ?? 0, tables: tables)
            return
        }
        if wait != nil { throw PlayersQuery.waitWithoutSince }
        let after = try query.get("after").map { text -> SyncRowKey in
            let parts = text.split(separator: ".", maxSplits: 1)
            guard parts.count == 2, let id = UUID(uuidString: String(parts[1])) else {
                throw APIError.badRequest("'after' must be the table and id of a row, TABLE.ID, as a page's 'next' gives them")
            }
            return SyncRowKey(table: String(parts[0]), id: id)
        }
        let cursor = try query.get("at").map { try PlayersQuery.cursor($0, name: "at") }
        self = .snapshot(limit: limit, after: after, cursor: cursor, tables: tables)
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
