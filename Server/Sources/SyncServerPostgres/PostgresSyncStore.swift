import Foundation
import Logging
import PostgresClient
import SyncSchema
import SyncServer
import Synchronization

/// The rows of an app's declared tables in a PostgreSQL database, shared
/// by several server instances: the engine's second store, which carries
/// out the same rules as ``SyncServerEmbedded/ServerSyncDatabase``
/// (``SyncChangeReads``, ``SyncChangePlan``) and only reads and writes
/// rows, in set-based statements whatever the size of a batch.
///
/// Its tables are its own (`sync_server_*`, their schema version in
/// `sync_server_schema_version`), so that it can share a database with
/// Players' store. As there, every write first locks the one row of the
/// counter, so that versions follow commit order across instances, and
/// reads run in `REPEATABLE READ`.
///
/// ```swift
/// let store = try await PostgresSyncStore(url: PostgresURL(url), schema: schema)
/// let results = try await store.applyChanges(batch)
/// try await store.close()
/// ```
public final class PostgresSyncStore: SyncRowStore {
    public let schema: SyncSchema
    public let history: ServerHistory
    /// Woken by the notifications of every instance's commits
    /// (``listener``), and by this instance's own at once.
    public let changes: StoreChangeNotifier
    let pool: PostgresConnectionPool
    let logger: Logger
    /// Listens to `sync_changes`, which every writing transaction notifies
    /// of its counter.
    private let listener: PostgresChangeListener
    /// The users' rights and digests, at the counter they were read at.
    let userReads = PostgresUserReadCache()
    private let isClosed = Mutex(false)

    /// Connects, and creates or migrates the store's tables. Throws one
    /// ``PostgresStoreError`` sentence within `connectTimeout` when the
    /// database cannot be reached or refuses the connection.
    public convenience init(
        url: PostgresURL,
        schema: SyncSchema,
        connectTimeout: Duration = .seconds(10),
        leaseTimeout: Duration = .seconds(30),
        operationTimeout: Duration = .seconds(60),
        logger: Logger = Logger(label: "players-server.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws {
        try await self.init(url: url, schema: schema, adopting: nil, connectTimeout: connectTimeout, leaseTimeout: leaseTimeout,
                            operationTimeout: operationTimeout, logger: logger)
    }

    /// The same, taking in the rows of `adoption`'s earlier store if the
    /// database holds one (in this package: its connections are).
    package init(
        url: PostgresURL,
        schema: SyncSchema,
        adopting adoption: Adoption?,
        connectTimeout: Duration = .seconds(10),
        leaseTimeout: Duration = .seconds(30),
        operationTimeout: Duration = .seconds(60),
        logger: Logger = Logger(label: "players-server.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws {
        let counter: Int64
        (pool, (history, counter)) = try await PostgresConnectionPool.opened(
            url: url, connectTimeout: connectTimeout, leaseTimeout: leaseTimeout, operationTimeout: operationTimeout, logger: logger
        ) { pool in
            try await pool.withTransaction(leaseTimeout: connectTimeout, logger: logger) { connection in
                try await Self.migrations.migrate(connection, logger: logger)
                if let adoption { try await Self.adopt(adoption, connection, schema: schema, logger: logger) }
                return (try await Self.history(connection, logger), try await Self.counter(connection, logger).value)
            }
        }
        self.schema = schema
        self.logger = logger
        changes = StoreChangeNotifier(latestVersion: counter)
        listener = PostgresChangeListener(channel: "sync_changes", counterTable: "sync_server_counter", pool: pool, changes: changes,
                                          logger: logger)
        do {
            try await write { connection, logger, _ in
                let rows = PostgresSyncRows(connection: connection, logger: logger, schema: schema)
                try SyncStoreError.checkDeclared(try await rows.storedTables(), by: schema)
                let served = try await connection.query("SELECT declaration FROM sync_server_declaration WHERE id = 1", logger: logger)
                    .first(String.self)
                let kept = try SyncStoreError.declarationToKeep(served: served, serving: schema)
                try await connection.query("""
                    INSERT INTO sync_server_declaration (id, declaration) VALUES (1, \(kept))
                    ON CONFLICT (id) DO UPDATE SET declaration = EXCLUDED.declaration
                    """, logger: logger)
                try await rows.makeMissingDigests()
            }
        } catch {
            try? await close()
            throw error
        }
    }

    /// Closes the connections: later calls throw.
    public func close() async throws {
        let wasClosed = isClosed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        await listener.stop()
        await pool.close()
    }

    static let migrations = PostgresMigrations(versionTable: "sync_server_schema_version", lockKey: 0x73_796E_6373_7276, versions: [
        [
            // The change counter, and the oldest version a delta can start
            // after (tombstones older than it were purged). Every write
            // locks its one row first.
            """
            CREATE TABLE sync_server_counter (
                id integer PRIMARY KEY CHECK (id = 1),
                value bigint NOT NULL,
                floor bigint NOT NULL)
            """,
            "INSERT INTO sync_server_counter (id, value, floor) VALUES (1, 0, 0)",
            """
            CREATE TABLE sync_server_row (
                table_name text NOT NULL,
                id uuid NOT NULL,
                version bigint NOT NULL UNIQUE,
                row_values text,
                column_versions text,
                deleted_at timestamptz,
                PRIMARY KEY (table_name, id),
                CHECK ((row_values IS NULL) = (deleted_at IS NOT NULL)))
            """,
            "CREATE INDEX sync_server_row_deleted_at ON sync_server_row (deleted_at) WHERE deleted_at IS NOT NULL",
            """
            CREATE TABLE sync_server_reference (
                table_name text NOT NULL,
                id uuid NOT NULL,
                column_name text NOT NULL,
                parent_table text NOT NULL,
                parent_id uuid NOT NULL,
                PRIMARY KEY (table_name, id, column_name))
            """,
            "CREATE INDEX sync_server_reference_parent ON sync_server_reference (parent_table, parent_id)",
            """
            CREATE TABLE sync_server_answer (
                mutation_id uuid PRIMARY KEY,
                table_name text NOT NULL,
                row_id uuid NOT NULL,
                operation text NOT NULL,
                status text NOT NULL,
                version bigint,
                server_values text,
                answered_at timestamptz NOT NULL)
            """,
            "CREATE INDEX sync_server_answer_answered_at ON sync_server_answer (answered_at)",
            // The database's identity and the epochs of its history
            // (ServerHistory), which every cursor names.
            """
            CREATE TABLE sync_server_identity (
                id integer PRIMARY KEY CHECK (id = 1),
                server uuid NOT NULL)
            """,
            "INSERT INTO sync_server_identity (id, server) VALUES (1, gen_random_uuid())",
            """
            CREATE TABLE sync_server_epoch (
                position integer PRIMARY KEY,
                epoch text NOT NULL UNIQUE,
                start bigint NOT NULL)
            """,
            PostgresQuery(unsafeSQL: "INSERT INTO sync_server_epoch (position, epoch, start) VALUES (1, \(PostgresMigrations.randomEpoch), 0)"),
        ],
        [
            // The oid of the row table when the current epoch began:
            // `pg_restore` makes the tables anew, with new oids, so that a
            // restored database begins a new epoch (``history(_:_:)``).
            "ALTER TABLE sync_server_identity ADD COLUMN row_table oid",
            "UPDATE sync_server_identity SET row_table = 'sync_server_row'::regclass::oid",
            "ALTER TABLE sync_server_identity ALTER COLUMN row_table SET NOT NULL",
        ],
        [
            // The digest of each declared table's live rows, made when an
            // instance starts with a declaration (makeMissingDigests).
            """
            CREATE TABLE sync_server_digest (
                table_name text PRIMARY KEY,
                columns text,
                row_count bigint NOT NULL,
                checksum bigint NOT NULL)
            """,
        ],
        [
            // Each answer bound to its whole change (SyncChange.fingerprint);
            // those kept before bind their row and operation.
            "ALTER TABLE sync_server_answer ADD COLUMN change_fingerprint text",
        ],
        [
            // The declaration served last, which the next one must not
            // lock out (SyncStoreError.declarationToKeep).
            "CREATE TABLE sync_server_declaration (id integer PRIMARY KEY CHECK (id = 1), declaration text NOT NULL)",
        ],
        [
            // Users (SyncRights): each row's owner and partition, the
            // grants of groups and memberships, when each user's access
            // last changed, and the digests of each partition.
            "ALTER TABLE sync_server_row ADD COLUMN owner_name text, ADD COLUMN partition_key text",
            "CREATE INDEX sync_server_row_partition ON sync_server_row (partition_key, version)",
            "CREATE INDEX sync_server_row_partition_key ON sync_server_row (partition_key, table_name, id)",
            """
            CREATE TABLE sync_server_grant (
                table_name text NOT NULL,
                id uuid NOT NULL,
                partition_key text NOT NULL,
                user_name text NOT NULL,
                is_owner boolean NOT NULL,
                PRIMARY KEY (table_name, id))
            """,
            "CREATE INDEX sync_server_grant_user ON sync_server_grant (user_name, partition_key)",
            "CREATE TABLE sync_server_access_change (user_name text PRIMARY KEY, version bigint NOT NULL)",
            """
            CREATE TABLE sync_server_partition_digest (
                table_name text NOT NULL,
                partition_key text NOT NULL,
                row_count bigint NOT NULL,
                checksum bigint NOT NULL,
                PRIMARY KEY (partition_key, table_name))
            """,
        ],
        [
            // The keys of end-to-end tables (SyncKeyDirectory): each
            // user's identity key, and the partition keys wrapped to each
            // reader.
            "CREATE TABLE sync_server_identity_key (user_name text PRIMARY KEY, public_key text NOT NULL)",
            """
            CREATE TABLE sync_server_wrapped_key (
                recipient text NOT NULL,
                partition_key text NOT NULL,
                epoch bigint NOT NULL,
                sender text NOT NULL,
                wrapped text NOT NULL,
                PRIMARY KEY (recipient, partition_key, epoch))
            """,
        ],
    ])

    // MARK: - Writing

    /// Applies a write in one transaction, by the rules of
    /// ``SyncChangePlan``, and returns one answer per change, or nil
    /// (writing nothing) when the table it requires empty has rows; throws
    /// ``SyncChangeError`` when the batch is refused, and then changes
    /// nothing.
    public func apply(_ write: SyncWrite, at date: Date) async throws -> [SyncPushResult]? {
        try await scopedWrite { [schema] connection, logger, counter in
            let rows = PostgresSyncRows(connection: connection, logger: logger, schema: schema)
            if let table = write.requiresNoRowsIn, try await rows.hasLiveRows(in: table) { return (nil, nil) }
            var reads = SyncChangeReads(write.changes, schema: schema)
            while let request = reads.nextRequest() {
                switch request {
                case .rows(let keys): reads.receive(try await rows.rows(keys))
                case .children(let parents): reads.receive(try await rows.children(of: parents))
                }
            }
            var rights: SyncRights?
            if let user = write.user { rights = try await rows.rights(of: user) }
            let plan = try SyncChangePlan(write.changes, schema: schema, rows: reads.rows,
                                          recorded: write.keepsAnswers ? try await rows.answers(write.changes.map(\.mutationID)) : [:],
                                          keepsAnswers: write.keepsAnswers, rights: rights, counter: counter, date: date)
            try await rows.save(plan.rowsToSave)
            try await rows.record(plan.answersToRecord)
            try await rows.saveGrants(plan)
            try await rows.applyDigestChanges(plan.digestChanges, partitions: plan.partitionDigestChanges)
            try await connection.query("UPDATE sync_server_counter SET value = \(plan.counter) WHERE id = 1", logger: logger)
            return (plan.results, plan.changeScope)
        }
    }

    /// Deletes the tombstones older than `retention` at `now`, and the
    /// answers given before then, raising the floor of deltas past them, by
    /// the rules of ``SyncPurge``, in one transaction.
    public func purgeTombstones(olderThan retention: TimeInterval, now: Date) async throws {
        let purge = SyncPurge(olderThan: retention, now: now)
        try await write { connection, logger, _ in
            guard let (floor, newest) = try await connection.query("""
                SELECT floor, (SELECT max(version) FROM sync_server_row WHERE deleted_at < \(purge.limit))
                FROM sync_server_counter WHERE id = 1
                """, logger: logger).first((Int64, Int64?).self) else { throw PostgresStoreError.counterMissing }
            if let floor = purge.raisedFloor(from: floor, newestPurged: newest) {
                try await connection.query("UPDATE sync_server_counter SET floor = \(floor) WHERE id = 1", logger: logger)
            }
            try await connection.query("""
                DELETE FROM sync_server_grant WHERE (table_name, id) IN (SELECT table_name, id FROM sync_server_row WHERE deleted_at < \(purge.limit))
                """, logger: logger)
            try await connection.query("DELETE FROM sync_server_row WHERE deleted_at < \(purge.limit)", logger: logger)
            try await connection.query("DELETE FROM sync_server_answer WHERE answered_at < \(purge.limit)", logger: logger)
        }
    }

    // MARK: - Reading

    /// The counter: the version of the last change.
    public func currentVersion() async throws -> Int64 {
        try await read { connection, logger in try await Self.counter(connection, logger).value }
    }

    /// The row of `key`, live or deleted.
    public func row(_ key: SyncRowKey) async throws -> SyncStoredRow? {
        try await read { [schema] connection, logger in
            try await PostgresSyncRows(connection: connection, logger: logger, schema: schema).rows([key]).first
        }
    }

    /// What `user` may read and write, as the grants stand.
    public func rights(of user: SyncUser) async throws -> SyncRights {
        try await read { [schema] connection, logger in
            try await PostgresSyncRows(connection: connection, logger: logger, schema: schema).rights(of: user)
        }
    }

    /// The rows changed after `version` (of the tables of `filter`, or of
    /// every table when nil) that `user` reads (every one when nil), live
    /// rows and tombstones, in version order, at most `limit`, with the
    /// counter and the digests when they were read; nil when `version` is
    /// older than the floor or later than the counter, or the user's
    /// access changed since: the client must take a snapshot.
    public func changes(after version: Int64, limit: Int, tables filter: SyncTableFilter?, for user: SyncUser?) async throws -> SyncStoredPage? {
        try await read { [schema, userReads] connection, logger in
            let start = try await Self.readStart(connection, logger, schema: schema, cache: userReads, for: user, accessChangedAfter: version)
            let counter = start.counter
            guard counter.answersDelta(after: version), !start.accessChanged else { return nil }
            let reads = PostgresSyncRows(connection: connection, logger: logger, schema: schema)
            let rows: [SyncStoredRow]
            if let readable = start.readablePartitions {
                // The read filter of SyncRights.reads, in the query: the
                // user's partitions, then the shared tables' rows (of no
                // partition), each from the index of partitions by version.
                // The partitions as values, whose rows the planner counts
                // from its statistics: it then reads them from their index,
                // and never walks the versions' index through every user's
                // changes. OFFSET 0: the sort, not the LIMIT, decides.
                rows = try await reads.stored("""
                    (SELECT * FROM (SELECT \(unescaped: PostgresSyncRows.columns) FROM sync_server_row
                     WHERE partition_key = ANY(\(readable))
                     AND version > \(version) AND (\(filter?.tables)::text[] IS NULL OR table_name = ANY(\(filter?.tables)))
                     OFFSET 0) mine ORDER BY version LIMIT \(limit))
                    UNION ALL
                    (SELECT \(unescaped: PostgresSyncRows.columns) FROM sync_server_row
                     WHERE partition_key IS NULL AND table_name = ANY(\(schema.sharedTables)) AND version > \(version)
                     AND (\(filter?.tables)::text[] IS NULL OR table_name = ANY(\(filter?.tables)))
                     ORDER BY version LIMIT \(limit))
                    ORDER BY version LIMIT \(limit)
                    """)
            } else {
                rows = try await reads.stored("""
                    SELECT \(unescaped: PostgresSyncRows.columns) FROM sync_server_row
                    WHERE version > \(version) AND (\(filter?.tables)::text[] IS NULL OR table_name = ANY(\(filter?.tables)))
                    ORDER BY version LIMIT \(limit)
                    """)
            }
            guard rows.count < limit else { return SyncStoredPage(rows: rows, counter: counter.value) }
            return SyncStoredPage(rows: rows, counter: counter.value, digests: try await start.digests(reading: reads))
        }
    }

    public func snapshot(after key: SyncRowKey?, limit: Int, tables filter: SyncTableFilter?, for user: SyncUser?) async throws -> SyncStoredPage {
        try await read { [schema, userReads] connection, logger in
            let start = try await Self.readStart(connection, logger, schema: schema, cache: userReads, for: user)
            let reads = PostgresSyncRows(connection: connection, logger: logger, schema: schema)
            let steps = schema.snapshotReads(after: key, tables: filter, for: user)
            var rows: [SyncStoredRow] = []
            if let readable = start.readablePartitions {
                rows = try await reads.stored(Self.userSnapshotPage(steps, partitions: readable, limit: limit))
            } else {
                // Each query walks its table's part of the key's index.
                for read in steps where rows.count < limit {
                    // Two statements, each planned once for every page: the
                    // key's range, with the row it continues after or not.
                    if let after = read.afterID {
                        rows += try await reads.stored("""
                            SELECT \(unescaped: PostgresSyncRows.columns) FROM sync_server_row
                            WHERE deleted_at IS NULL AND table_name = \(read.firstTable) AND id > \(after)
                            ORDER BY id LIMIT \(limit - rows.count)
                            """)
                    } else {
                        rows += try await reads.stored("""
                            SELECT \(unescaped: PostgresSyncRows.columns) FROM sync_server_row
                            WHERE deleted_at IS NULL AND table_name = \(read.firstTable)
                            ORDER BY id LIMIT \(limit - rows.count)
                            """)
                    }
                }
            }
            guard rows.count < limit else { return SyncStoredPage(rows: rows, counter: start.counter.value) }
            return SyncStoredPage(rows: rows, counter: start.counter.value, digests: try await start.digests(reading: reads))
        }
    }

    /// A user's snapshot page, the reads of `steps` (``SyncSchema/snapshotReads(after:tables:for:)``)
    /// in one statement: the rows of the user's `partitions` in the tables
    /// read by partitions (the partitions as values: see ``changes(after:limit:tables:for:)``),
    /// and each shared table's from the key's index (the one the page
    /// continues in from the row after its id), up to `limit`; in the
    /// tables' order of `steps` (the database's collation may sort them
    /// otherwise), then by id.
    static func userSnapshotPage(_ steps: [SyncSnapshotRead], partitions: [String], limit: Int) -> PostgresQuery {
        let tables = steps.flatMap(\.tables)
        let partitioned = steps.filter(\.byPartitions).flatMap(\.tables)
        // The row the page continues after, in the first table.
        let first = steps.first?.firstTable ?? ""
        let after = steps.first?.afterID
        // A shared table the page continues in, read in a range of its
        // keys; the others from their first row.
        let continued = steps.first.flatMap { read in read.byPartitions || read.afterID == nil ? nil : read.firstTable }
        let shared = steps.filter { !$0.byPartitions }.flatMap(\.tables).filter { $0 != continued }
        let columns = PostgresSyncRows.columns
        return """
            SELECT \(unescaped: columns) FROM (
                SELECT \(unescaped: columns), array_position(\(tables), table_name) AS step FROM (
                    SELECT \(unescaped: columns) FROM sync_server_row
                    WHERE partition_key = ANY(\(partitions)) AND table_name = ANY(\(partitioned)) AND deleted_at IS NULL
                    AND (table_name <> \(first) OR \(after)::uuid IS NULL OR id > \(after))
                    OFFSET 0) mine
                UNION ALL
                SELECT \(unescaped: columns), array_position(\(tables), table_name) FROM (
                    SELECT \(unescaped: columns) FROM sync_server_row
                    WHERE deleted_at IS NULL AND table_name = \(continued) AND id > \(after) ORDER BY id LIMIT \(limit)) continued
                UNION ALL
                SELECT \(unescaped: columns), array_position(\(tables), table_name) FROM unnest(\(shared)) AS s (name), LATERAL (
                    SELECT \(unescaped: columns) FROM sync_server_row
                    WHERE deleted_at IS NULL AND table_name = s.name ORDER BY id LIMIT \(limit)) whole
            ) page
            ORDER BY step, id LIMIT \(limit)
            """
    }

    // MARK: - Transactions

    /// Runs `body` in a read-only `REPEATABLE READ` transaction.
    func read<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> Result
    ) async throws -> Result {
        try checkOpen()
        return try await pool.withSnapshotRead(logger: logger) { [logger] connection in try await body(connection, logger) }
    }

    /// Runs `body` in a writing transaction that holds the counter (the
    /// one writer, across instances) until its commit, which notifies
    /// every instance of the counter; `body` gets the counter's value.
    func write<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection, Logger, Int64) async throws -> Result
    ) async throws -> Result {
        try await scopedWrite { connection, logger, counter in (try await body(connection, logger, counter), nil) }
    }

    /// ``write(_:)``, whose `body` also gives the scope of its changes
    /// (``StoreChangeScope``; nil: unknown), which its notification carries.
    func scopedWrite<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection, Logger, Int64) async throws -> (Result, StoreChangeScope?)
    ) async throws -> Result {
        try checkOpen()
        let (result, scope, counter) = try await pool.withTransaction(logger: logger) { [logger, listener] connection in
            let (result, scope) = try await body(connection, logger, try await connection.lockCounter("sync_server_counter", logger: logger))
            return (result, scope, try await listener.notifyCounter(connection, logger, scope: scope))
        }
        // Committed: this instance's waiters need not wait for the
        // notification's round trip.
        changes.publish(counter, scope: scope)
        return result
    }

    func checkOpen() throws {
        if isClosed.withLock({ $0 }) { throw PostgresStoreError.closed }
    }

    /// In the migration's transaction: begins a new epoch, at the counter,
    /// if the row table is not the one the current epoch began with
    /// (`pg_restore` made it anew), and returns the identity and epochs.
    static func history(_ connection: PostgresConnection, _ logger: Logger) async throws -> ServerHistory {
        guard let (server, isSameTable) = try await connection.query(
            "SELECT server, row_table = 'sync_server_row'::regclass::oid FROM sync_server_identity WHERE id = 1", logger: logger
        ).first((UUID, Bool).self) else { throw PostgresStoreError.identityMissing }
        if !isSameTable {
            try await connection.query(PostgresQuery(unsafeSQL: """
                INSERT INTO sync_server_epoch (position, epoch, start)
                SELECT MAX(position) + 1, \(PostgresMigrations.randomEpoch), (SELECT value FROM sync_server_counter WHERE id = 1)
                FROM sync_server_epoch
                """), logger: logger)
            try await connection.query("UPDATE sync_server_identity SET row_table = 'sync_server_row'::regclass::oid WHERE id = 1",
                                       logger: logger)
        }
        let epochs = try await connection.query("SELECT epoch, start FROM sync_server_epoch ORDER BY position", logger: logger)
            .decode((String, Int64).self).map { SyncEpoch(epoch: $0, start: $1) }
        guard !epochs.isEmpty else { throw PostgresStoreError.epochMissing }
        return ServerHistory(server: server, epochs: epochs)
    }
}
