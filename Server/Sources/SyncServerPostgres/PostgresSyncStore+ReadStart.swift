import Logging
import PostgresClient
import SyncServer

/// What every read of pages reads first, in one round trip: the counter
/// and its floor, and for a user, their grants and whether their
/// memberships changed after a cursor.
struct PostgresReadStart {
    let counter: SyncCounter
    /// The user's rights; nil for a read of every row.
    let rights: SyncRights?
    /// Whether the user's memberships changed after the version asked.
    let accessChanged: Bool

    /// The partitions the user reads, sorted; nil for a read of every row.
    var readablePartitions: [String]? {
        rights?.readablePartitions.sorted()
    }
}

extension PostgresSyncStore {
    /// The counter, and the rights of `user` (with whether their access
    /// changed after `version`), in one statement.
    ///
    /// In the same round trip it makes the transaction's later reads range
    /// scans of an index in its order: every read of the store is (a page
    /// in key or version order, with a limit), and the planner's statistics
    /// lag a bulk write (a seed, an adoption) by up to a minute, when it
    /// took a bitmap or sequential scan and a sort of every row of a table
    /// for a page (6.6 ms instead of 0.4 ms for a page of 100 of 10,000
    /// players). JIT compilation is off too: the cost that a disabled scan
    /// is given made it compile a query of a few rows (90 ms). Each grant
    /// of the user is a row (none: one row of NULLs).
    static func readStart(_ connection: PostgresConnection, _ logger: Logger, for user: SyncUser? = nil,
                          accessChangedAfter version: Int64? = nil) async throws -> PostgresReadStart {
        let rows = try await connection.query("""
            SELECT c.value, c.floor, set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true),
                   set_config('jit', 'off', true),
                   EXISTS (SELECT 1 FROM sync_server_access_change a WHERE a.user_name = \(user?.name) AND a.version > \(version)),
                   g.partition_key, g.is_owner
            FROM sync_server_counter c LEFT JOIN sync_server_grant g ON g.user_name = \(user?.name)
            WHERE c.id = 1
            """, logger: logger).decode((Int64, Int64, String, String, String, Bool, String?, Bool?).self)
        guard let first = rows.first else { throw PostgresStoreError.counterMissing }
        let rights = user.map { user in
            SyncRights(user: user, grants: rows.compactMap { row in
                row.6.map { SyncGrant(partition: $0, user: user.name, isOwner: row.7 ?? false) }
            })
        }
        return PostgresReadStart(counter: SyncCounter(value: first.0, floor: first.1), rights: rights, accessChanged: first.5)
    }

    /// The counter and its floor (``readStart(_:_:for:accessChangedAfter:)``).
    static func counter(_ connection: PostgresConnection, _ logger: Logger) async throws -> SyncCounter {
        try await readStart(connection, logger).counter
    }
}
