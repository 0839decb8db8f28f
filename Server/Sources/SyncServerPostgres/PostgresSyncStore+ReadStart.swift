import Logging
import PostgresClient
import SyncSchema
import SyncServer

/// What every read of pages reads first, in one round trip: the counter
/// and its floor, and for a user, their grants, whether their memberships
/// changed after a cursor, and the digests of the rows they read.
struct PostgresReadStart {
    let counter: SyncCounter
    /// The user's rights; nil for a read of every row.
    let rights: SyncRights?
    /// Whether the user's memberships changed after the version asked.
    let accessChanged: Bool
    /// The digests of the rows the user reads (``SyncPartitionDigest/readable(_:partitions:schema:)``);
    /// nil for a read of every row, which reads the whole ones when its
    /// page is the last.
    let digests: [SyncTableDigest]?

    /// The digests of a page that is the last: the user's, or the whole
    /// ones, read by `reads`.
    func digests(reading reads: PostgresSyncRows) async throws -> [SyncTableDigest] {
        if let digests { return digests }
        return try await reads.digests()
    }

    /// The partitions the user reads, sorted; nil for a read of every row.
    var readablePartitions: [String]? {
        rights?.readablePartitions.sorted()
    }
}

extension PostgresSyncStore {
    /// The counter; for `user`, with their rights, whether their access
    /// changed after `version`, and their digests: one statement either way.
    ///
    /// In the same round trip it makes the transaction's later reads range
    /// scans of an index in its order: every read of the store is (a page
    /// in key or version order, with a limit), and the planner's statistics
    /// lag a bulk write (a seed, an adoption) by up to a minute, when it
    /// took a bitmap or sequential scan and a sort of every row of a table
    /// for a page (6.6 ms instead of 0.4 ms for a page of 100 of 10,000
    /// players). JIT compilation is off too: the cost that a disabled scan
    /// is given made it compile a query of a few rows (90 ms).
    ///
    /// A user's digests are read whether the page is the last or not: a
    /// statement of its own costs more than its few rows.
    static func readStart(_ connection: PostgresConnection, _ logger: Logger, schema: SyncSchema, for user: SyncUser? = nil,
                          accessChangedAfter version: Int64? = nil) async throws -> PostgresReadStart {
        guard let user else {
            return PostgresReadStart(counter: try await counter(connection, logger), rights: nil, accessChanged: false, digests: nil)
        }
        // One row per kind of fact: 0 the counter (with whether the access
        // changed), 1 a grant, 2 a table's whole digest, 3 a digest of one
        // of the user's partitions.
        let facts = try await connection.query(PostgresQuery("""
            SELECT 0, NULL::text, NULL::text, c.value, c.floor,
                   EXISTS (SELECT 1 FROM sync_server_access_change a WHERE a.user_name = \(user.name) AND a.version > \(version)),
                   \(unescaped: scanSettings)
            FROM sync_server_counter c WHERE c.id = 1
            UNION ALL
            SELECT 1, partition_key, NULL, NULL, NULL, is_owner, NULL FROM sync_server_grant WHERE user_name = \(user.name)
            UNION ALL
            SELECT 2, table_name, columns, row_count, checksum, NULL, NULL FROM sync_server_digest
            UNION ALL
            SELECT 3, table_name, NULL, row_count, checksum, NULL, NULL FROM sync_server_partition_digest
            WHERE partition_key IN (SELECT partition_key FROM sync_server_grant WHERE user_name = \(user.name)
                                    UNION ALL SELECT \(SyncPartition.user(user.name)))
            """).prepared(), logger: logger).decode((Int64, String?, String?, Int64?, Int64?, Bool?, String?).self)
        var counter: SyncCounter?
        var accessChanged = false
        var grants: [SyncGrant] = []
        var whole: [SyncTableDigest] = []
        var partitions: [SyncTableDigest] = []
        for (kind, name, columns, first, second, flag, _) in facts {
            switch (kind, name, first, second) {
            case (0, _, let value?, let floor?):
                counter = SyncCounter(value: value, floor: floor)
                accessChanged = flag ?? false
            case (1, let partition?, _, _):
                grants.append(SyncGrant(partition: partition, user: user.name, isOwner: flag ?? false))
            case (2, let table?, let rows?, let checksum?):
                if let digest = SyncTableDigest(kept: table, columns: columns, rows: Int(rows), checksum: checksum, schema: schema) {
                    whole.append(digest)
                }
            case (3, let table?, let rows?, let checksum?):
                partitions.append(SyncTableDigest(table: table, columns: [], rows: Int(rows), checksum: UInt64(bitPattern: checksum)))
            default:
                throw PostgresDecodingError("a row of kind \(kind) of the read's start lacks a column its kind has.")
            }
        }
        guard let counter else { throw PostgresStoreError.counterMissing }
        whole.sort { $0.table < $1.table }
        return PostgresReadStart(counter: counter, rights: SyncRights(user: user, grants: grants), accessChanged: accessChanged,
                                 digests: SyncPartitionDigest.readable(whole, partitions: partitions, schema: schema))
    }

    /// The settings of the transaction's later reads (``readStart(_:_:schema:for:accessChangedAfter:)``),
    /// as one text column.
    private static let scanSettings = """
        set_config('enable_bitmapscan', 'off', true) || set_config('enable_seqscan', 'off', true) || set_config('jit', 'off', true)
        || set_config('plan_cache_mode', 'force_generic_plan', true)
        """

    /// The counter and its floor (``readStart(_:_:schema:for:accessChangedAfter:)``).
    static func counter(_ connection: PostgresConnection, _ logger: Logger) async throws -> SyncCounter {
        guard let (value, floor, _) = try await connection.query(PostgresQuery("""
            SELECT value, floor, \(unescaped: scanSettings) FROM sync_server_counter WHERE id = 1
            """).prepared(), logger: logger).first((Int64, Int64, String).self) else { throw PostgresStoreError.counterMissing }
        return SyncCounter(value: value, floor: floor)
    }
}
