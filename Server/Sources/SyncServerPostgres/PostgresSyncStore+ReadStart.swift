import Logging
import PostgresClient
import SyncSchema
import SyncServer

/// What every read of pages reads first: the counter and its floor, and
/// for a user, their grants, whether their memberships changed after a
/// cursor, and the digests of the rows they read.
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
    /// changed after `version`, and their digests, kept in `cache` at the
    /// counter (``PostgresUserReadCache``): one statement when the counter
    /// has not moved since the user's last read, two when it has.
    ///
    /// A user's digests are read whether the page is the last or not: a
    /// statement of its own costs more than its few rows.
    static func readStart(_ connection: PostgresConnection, _ logger: Logger, schema: SyncSchema, cache: PostgresUserReadCache,
                          for user: SyncUser? = nil, accessChangedAfter version: Int64? = nil) async throws -> PostgresReadStart {
        let counter = try await Self.counter(connection, logger)
        guard let user else { return PostgresReadStart(counter: counter, rights: nil, accessChanged: false, digests: nil) }
        let facts: PostgresUserReadCache.Facts
        if let kept = cache.facts(of: user.name, at: counter.value) {
            facts = kept
        } else {
            facts = try await userFacts(connection, logger, schema: schema, of: user, at: counter)
            cache.keep(facts, of: user.name)
        }
        return PostgresReadStart(counter: counter, rights: SyncRights(user: user, grants: facts.grants),
                                 accessChanged: version.map { version in facts.accessChangedAt.map { $0 > version } ?? false } ?? false,
                                 digests: facts.digests)
    }

    /// The facts of `user` (``PostgresUserReadCache/Facts``) in the read's
    /// transaction, whose counter is `counter`, in one statement: one row
    /// per fact, 1 a grant, 2 a table's whole digest, 3 a digest of one of
    /// the user's partitions, 0 the version of their last change of
    /// memberships.
    private static func userFacts(_ connection: PostgresConnection, _ logger: Logger, schema: SyncSchema, of user: SyncUser,
                                  at counter: SyncCounter) async throws -> PostgresUserReadCache.Facts {
        let facts = try await connection.query(PostgresQuery("""
            SELECT 0, NULL::text, NULL::text, version, NULL::bigint, NULL::boolean FROM sync_server_access_change WHERE user_name = \(user.name)
            UNION ALL
            SELECT 1, partition_key, NULL, NULL, NULL, is_owner FROM sync_server_grant WHERE user_name = \(user.name)
            UNION ALL
            SELECT 2, table_name, columns, row_count, checksum, NULL FROM sync_server_digest
            UNION ALL
            SELECT 3, table_name, NULL, row_count, checksum, NULL FROM sync_server_partition_digest
            WHERE partition_key IN (SELECT partition_key FROM sync_server_grant WHERE user_name = \(user.name)
                                    UNION ALL SELECT \(SyncPartition.user(user.name)))
            """).prepared(), logger: logger).decode((Int64, String?, String?, Int64?, Int64?, Bool?).self)
        var accessChangedAt: Int64?
        var grants: [SyncGrant] = []
        var whole: [SyncTableDigest] = []
        var partitions: [SyncTableDigest] = []
        for (kind, name, columns, first, second, flag) in facts {
            switch (kind, name, first, second, flag) {
            case (0, _, let version?, _, _):
                accessChangedAt = version
            case (1, let partition?, _, _, let isOwner?):
                grants.append(SyncGrant(partition: partition, user: user.name, isOwner: isOwner))
            case (2, let table?, let rows?, let checksum?, _):
                if let digest = SyncTableDigest(kept: table, columns: columns, rows: Int(rows), checksum: checksum, schema: schema) {
                    whole.append(digest)
                }
            case (3, let table?, let rows?, let checksum?, _):
                partitions.append(SyncTableDigest(table: table, columns: [], rows: Int(rows), checksum: UInt64(bitPattern: checksum)))
            default:
                throw PostgresDecodingError("a row of kind \(kind) of a user's facts lacks a column its kind has.")
            }
        }
        whole.sort { $0.table < $1.table }
        return PostgresUserReadCache.Facts(counter: counter.value, grants: grants, accessChangedAt: accessChangedAt,
                                           digests: SyncPartitionDigest.readable(whole, partitions: partitions, schema: schema))
    }

    /// The settings of the transaction's later reads (``readStart(_:_:schema:cache:for:accessChangedAfter:)``),
    /// as one text column.
    private static let scanSettings = """
        set_config('enable_bitmapscan', 'off', true) || set_config('enable_seqscan', 'off', true) || set_config('jit', 'off', true)
        || set_config('plan_cache_mode', 'force_generic_plan', true)
        """

    /// The counter and its floor, the first statement of every read of
    /// pages (``readStart(_:_:schema:cache:for:accessChangedAfter:)``).
    ///
    /// In the same round trip it makes the transaction's later reads range
    /// scans of an index in its order: every read of the store is (a page
    /// in key or version order, with a limit), and the planner's statistics
    /// lag a bulk write (a seed, an adoption) by up to a minute, when it
    /// took a bitmap or sequential scan and a sort of every row of a table
    /// for a page (6.6 ms instead of 0.4 ms for a page of 100 of 10,000
    /// players). JIT compilation is off too: the cost that a disabled scan
    /// is given made it compile a query of a few rows (90 ms). And each
    /// prepared statement is planned once, not at every run: planning a
    /// user's page took 0.7 ms for 0.13 ms of work. Every read statement
    /// is written so that its generic plan is a range of an index.
    static func counter(_ connection: PostgresConnection, _ logger: Logger) async throws -> SyncCounter {
        guard let (value, floor, _) = try await connection.query(PostgresQuery("""
            SELECT value, floor, \(unescaped: scanSettings) FROM sync_server_counter WHERE id = 1
            """).prepared(), logger: logger).first((Int64, Int64, String).self) else { throw PostgresStoreError.counterMissing }
        return SyncCounter(value: value, floor: floor)
    }
}
