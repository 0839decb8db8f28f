import CipherDB
import Foundation
import SyncSchema
import SyncServer

/// The rows of an app's declared tables on a server, in a CipherDB
/// database: the sync engine's embedded store. It only reads and writes
/// rows; the rules of a write are ``SyncServer``'s (``SyncChangeReads``,
/// ``SyncChangePlan``), which every store follows. Its calls block
/// (SQLite waits for its lock).
///
/// Every table's rows are in one table, `sync_server_row`, keyed by table
/// and id, their values a JSON object checked by the declaration when
/// read: a declaration that gains a column needs no migration, and a
/// column an older client does not send keeps its value.
///
/// ```swift
/// let database = try ServerSyncDatabase(DatabaseQueue(path: path, configuration: config), schema: schema)
/// let results = try database.applyChanges(batch)
/// let page = try database.changes(after: cursor, limit: 1_000)
/// ```
public final class ServerSyncDatabase: Sendable {
    let writer: any DatabaseWriter
    public let schema: SyncSchema
    /// The database's identity and the epochs of its history, which every
    /// cursor names.
    public let history: ServerHistory
    /// Wakes the long-polls after each commit that moves the counter,
    /// whichever call made it, through this database or another on the
    /// same file in this process (``FileChangeNotifiers``).
    public let changes: StoreChangeNotifier
    /// Held here: the database holds its observers weakly.
    private let commitObserver: CounterCommitObserver

    /// Migrates the database and takes in the rows of `adoption`'s earlier
    /// store if the file holds one, in one transaction, then serves
    /// `schema`'s tables.
    public init(_ writer: any DatabaseWriter, schema: SyncSchema, adopting adoption: Adoption? = nil) throws {
        self.writer = writer
        self.schema = schema
        try Self.migrate(writer, adopting: adoption, schema: schema)
        history = try writer.write { db in try Self.beginEpochIfRestored(db) }
        changes = FileChangeNotifiers.notifier(forPath: writer.path, history: "engine",
                                               latestVersion: try writer.read { db in try Self.counter(db).value })
        commitObserver = CounterCommitObserver(counterTable: "sync_server_counter", notifier: changes) { db in try Self.counter(db).value }
        try writer.write { db in
            try SyncStoreError.checkDeclared(try Self.storedTables(db), by: schema)
            let served = try String.fetchOne(db, sql: "SELECT declaration FROM sync_server_declaration WHERE id = 1")
            try db.execute(sql: "INSERT OR REPLACE INTO sync_server_declaration (id, declaration) VALUES (1, ?)",
                           arguments: [try SyncStoreError.declarationToKeep(served: served, serving: schema)])
            try makeMissingDigests(db)
        }
        writer.add(transactionObserver: commitObserver)
    }

    /// Marks a copy of a server database as a backup (`players-server
    /// backup` does, on the copy only): a server that opens it, once it is
    /// restored, begins a new epoch of the engine's history at its counter,
    /// so that no device takes a delta of a history that went back. Does
    /// nothing to a database without the engine's tables.
    public static func markAsBackupCopy(_ db: Database) throws {
        guard try db.tableExists("sync_server_identity") else { return }
        try db.execute(sql: "UPDATE sync_server_identity SET is_backup_copy = 1")
    }

    /// In the opening transaction: begins a new epoch, at the counter, if
    /// the database is a backup copy, which it then no longer is; returns
    /// the history.
    static func beginEpochIfRestored(_ db: Database) throws -> ServerHistory {
        let identity = try Row.fetchOne(db, sql: "SELECT server, is_backup_copy FROM sync_server_identity WHERE id = 1")
        guard let identity, let server = UUID(uuidString: identity["server"]) else { throw SyncStoreError.historyMissing }
        if identity["is_backup_copy"] as Bool {
            try db.execute(sql: """
                INSERT INTO sync_server_epoch (position, epoch, start)
                SELECT MAX(position) + 1, ?, (SELECT value FROM sync_server_counter) FROM sync_server_epoch
                """, arguments: [SyncCursor.newEpoch()])
            try db.execute(sql: "UPDATE sync_server_identity SET is_backup_copy = 0")
        }
        let epochs = try Row.fetchAll(db, sql: "SELECT epoch, start FROM sync_server_epoch ORDER BY position").map {
            SyncEpoch(epoch: $0["epoch"], start: $0["start"])
        }
        guard !epochs.isEmpty else { throw SyncStoreError.historyMissing }
        return ServerHistory(server: server, epochs: epochs)
    }

    /// The schema, one step per version, applied in order: a step is
    /// appended, never edited. The version reached is kept in a table of
    /// the engine's own (never GRDB's migrations table, which the players
    /// of the same file use), so that each part of a shared file migrates
    /// apart.
    static let migrations: [@Sendable (Database) throws -> Void] = [
        // 1: rows, references, answers, the counter, the history.
        { db in
            // The change counter, and the oldest version a delta can start
            // after (tombstones older than it were purged).
            try db.execute(sql: """
                CREATE TABLE sync_server_counter (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    value INTEGER NOT NULL,
                    floor INTEGER NOT NULL);
                INSERT INTO sync_server_counter (id, value, floor) VALUES (1, 0, 0);
                CREATE TABLE sync_server_row (
                    table_name TEXT NOT NULL,
                    id TEXT NOT NULL,
                    version INTEGER NOT NULL UNIQUE,
                    row_values TEXT,
                    column_versions TEXT,
                    deleted_at REAL,
                    PRIMARY KEY (table_name, id),
                    CHECK ((row_values IS NULL) = (deleted_at IS NOT NULL))
                ) WITHOUT ROWID;
                CREATE TABLE sync_server_reference (
                    table_name TEXT NOT NULL,
                    id TEXT NOT NULL,
                    column_name TEXT NOT NULL,
                    parent_table TEXT NOT NULL,
                    parent_id TEXT NOT NULL,
                    PRIMARY KEY (table_name, id, column_name)
                ) WITHOUT ROWID;
                CREATE INDEX sync_server_reference_parent ON sync_server_reference (parent_table, parent_id);
                CREATE TABLE sync_server_answer (
                    mutation_id BLOB PRIMARY KEY,
                    table_name TEXT NOT NULL,
                    row_id TEXT NOT NULL,
                    operation TEXT NOT NULL,
                    status TEXT NOT NULL,
                    version INTEGER,
                    server_values TEXT,
                    answered_at REAL NOT NULL);
                CREATE INDEX sync_server_answer_date ON sync_server_answer (answered_at);
                -- The database's identity and the epochs of its history
                -- (ServerHistory), which every cursor names.
                CREATE TABLE sync_server_identity (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    server TEXT NOT NULL);
                CREATE TABLE sync_server_epoch (
                    position INTEGER PRIMARY KEY,
                    epoch TEXT NOT NULL UNIQUE,
                    start INTEGER NOT NULL);
                """)
            try db.execute(sql: "INSERT INTO sync_server_identity (id, server) VALUES (1, ?)", arguments: [UUID().uuidString])
            try db.execute(sql: "INSERT INTO sync_server_epoch (position, epoch, start) VALUES (1, ?, 0)", arguments: [SyncCursor.newEpoch()])
        },
        // 2: a backup copy begins a new epoch once restored.
        { db in
            try db.execute(sql: "ALTER TABLE sync_server_identity ADD COLUMN is_backup_copy INTEGER NOT NULL DEFAULT 0")
        },
        // 3: the digest of each declared table's live rows, made when the
        // database opens with a declaration (makeMissingDigests).
        { db in
            try db.execute(sql: """
                CREATE TABLE sync_server_digest (
                    table_name TEXT PRIMARY KEY,
                    columns TEXT,
                    row_count INTEGER NOT NULL,
                    checksum INTEGER NOT NULL)
                """)
        },
        // 4: each answer bound to its whole change (SyncChange.fingerprint);
        // those kept before bind their row and operation.
        { db in
            try db.execute(sql: "ALTER TABLE sync_server_answer ADD COLUMN change_fingerprint TEXT")
        },
        // 5: the declaration served last, which the next one must not lock
        // out (SyncStoreError.declarationToKeep).
        { db in
            try db.execute(sql: "CREATE TABLE sync_server_declaration (id INTEGER PRIMARY KEY CHECK (id = 1), declaration TEXT NOT NULL)")
        },
        // 6: users (SyncRights): each row's owner and partition, the
        // grants of groups and memberships, when each user's access last
        // changed, and the digests of each partition.
        { db in
            try db.execute(sql: """
                ALTER TABLE sync_server_row ADD COLUMN owner_name TEXT;
                ALTER TABLE sync_server_row ADD COLUMN partition_key TEXT;
                CREATE INDEX sync_server_row_partition ON sync_server_row (partition_key, version);
                -- Every column: a user's snapshot page reads its rows from
                -- the index, its pages next to each other, never the rows'
                -- pages spread over the table (each decrypted when read).
                CREATE INDEX sync_server_row_partition_key ON sync_server_row
                    (partition_key, table_name, id, deleted_at, version, row_values, column_versions, owner_name);
                CREATE TABLE sync_server_grant (
                    table_name TEXT NOT NULL,
                    id TEXT NOT NULL,
                    partition_key TEXT NOT NULL,
                    user_name TEXT NOT NULL,
                    is_owner INTEGER NOT NULL,
                    PRIMARY KEY (table_name, id)
                ) WITHOUT ROWID;
                CREATE INDEX sync_server_grant_user ON sync_server_grant (user_name, partition_key);
                CREATE TABLE sync_server_access_change (user_name TEXT PRIMARY KEY, version INTEGER NOT NULL) WITHOUT ROWID;
                CREATE TABLE sync_server_partition_digest (
                    table_name TEXT NOT NULL,
                    partition_key TEXT NOT NULL,
                    row_count INTEGER NOT NULL,
                    checksum INTEGER NOT NULL,
                    PRIMARY KEY (partition_key, table_name)
                ) WITHOUT ROWID;
                """)
        },
        // 7: the keys of end-to-end tables (SyncKeyDirectory): each user's
        // identity key, and the partition keys wrapped to each reader.
        { db in
            try db.execute(sql: """
                CREATE TABLE sync_server_identity_key (user_name TEXT PRIMARY KEY, public_key TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE sync_server_wrapped_key (
                    recipient TEXT NOT NULL,
                    partition_key TEXT NOT NULL,
                    epoch INTEGER NOT NULL,
                    sender TEXT NOT NULL,
                    wrapped TEXT NOT NULL,
                    PRIMARY KEY (recipient, partition_key, epoch)
                ) WITHOUT ROWID;
                """)
        },
    ]

    /// Applies the steps the database lacks, then takes in `adoption`'s
    /// earlier store if the file holds one, in one immediate transaction
    /// (another process may open it at once): an adoption that fails
    /// leaves the file as it was. Throws
    /// ``SyncStoreError/newerSchema(version:supported:)`` for a schema that
    /// a later program migrated, which it leaves unchanged.
    static func migrate(_ writer: any DatabaseWriter, adopting adoption: Adoption?, schema: SyncSchema) throws {
        try writer.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                try db.execute(sql: """
                    CREATE TABLE IF NOT EXISTS sync_server_schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
                    INSERT OR IGNORE INTO sync_server_schema_version (id, version) VALUES (1, 0);
                    """)
                let current = try Int.fetchOne(db, sql: "SELECT version FROM sync_server_schema_version") ?? 0
                guard current <= migrations.count else {
                    throw SyncStoreError.newerSchema(version: current, supported: migrations.count)
                }
                for step in migrations.dropFirst(current) { try step(db) }
                try db.execute(sql: "UPDATE sync_server_schema_version SET version = ?", arguments: [migrations.count])
                if let adoption { try adopt(adoption, db, schema: schema) }
                return .commit
            }
        }
    }

    // MARK: - Writing

    /// Applies a write in one transaction, by the rules of
    /// ``SyncChangePlan``, and returns one answer per change, or nil
    /// (writing nothing) when the table it requires empty has rows; throws
    /// ``SyncChangeError`` when the batch is refused, and then changes
    /// nothing.
    public func apply(_ write: SyncWrite, at date: Date = Date()) throws -> [SyncPushResult]? {
        try writer.write { db in
            if let table = write.requiresNoRowsIn, try hasLiveRows(db, in: table) { return nil }
            var reads = SyncChangeReads(write.changes, schema: schema)
            while let request = reads.nextRequest() {
                switch request {
                case .rows(let keys): reads.receive(try rows(db, keys))
                case .children(let parents): reads.receive(try children(db, of: parents))
                }
            }
            let plan = try SyncChangePlan(write.changes, schema: schema, rows: reads.rows,
                                          recorded: write.keepsAnswers ? try answers(db, write.changes.map(\.mutationID)) : [:],
                                          keepsAnswers: write.keepsAnswers, rights: try write.user.map { try rights(db, of: $0) },
                                          counter: try Self.counter(db).value, date: date)
            for row in plan.rowsToSave { try Self.save(db, row, schema: schema) }
            for answer in plan.answersToRecord { try Self.record(db, answer) }
            try saveGrants(db, plan)
            try applyDigestChanges(db, plan.digestChanges, partitions: plan.partitionDigestChanges)
            try db.execute(sql: "UPDATE sync_server_counter SET value = ?", arguments: [plan.counter])
            // Told to the long-polls at the commit: those it concerns wake.
            commitObserver.scopeOfCommit = plan.changeScope
            return plan.results
        }
    }

    /// Applies a device's pushed changes, keeping their answers.
    public func applyChanges(_ changes: [SyncChange], at date: Date = Date()) throws -> [SyncPushResult] {
        try apply(SyncWrite(changes), at: date) ?? []
    }

    /// Deletes the tombstones older than `retention` at `now`, and the
    /// answers given before then, raising the floor of deltas past them, by
    /// the rules of ``SyncPurge``, in one transaction.
    public func purgeTombstones(olderThan retention: TimeInterval, now: Date = Date()) throws {
        let purge = SyncPurge(olderThan: retention, now: now)
        let limit = purge.limit.timeIntervalSince1970
        try writer.write { db in
            let newest = try Int64.fetchOne(db, sql: "SELECT MAX(version) FROM sync_server_row WHERE deleted_at < ?", arguments: [limit])
            if let floor = purge.raisedFloor(from: try Self.counter(db).floor, newestPurged: newest) {
                try db.execute(sql: "UPDATE sync_server_counter SET floor = ?", arguments: [floor])
            }
            // None older: no second scan of the rows for them.
            if newest != nil {
                try db.execute(sql: """
                    DELETE FROM sync_server_grant WHERE (table_name, id) IN (SELECT table_name, id FROM sync_server_row WHERE deleted_at < ?)
                    """, arguments: [limit])
                try db.execute(sql: "DELETE FROM sync_server_row WHERE deleted_at < ?", arguments: [limit])
            }
            try db.execute(sql: "DELETE FROM sync_server_answer WHERE answered_at < ?", arguments: [limit])
        }
    }

    /// Moves the WAL into the database file, then closes the database.
    /// Later calls throw.
    ///
    /// Throws ``SyncStoreError/closedInUse(path:)`` when another program
    /// still reads the database once the busy timeout has passed: the
    /// database is closed all the same, and its WAL, which that program
    /// reads, stays until it closes the database.
    public func close() throws {
        var isReadElsewhere = false
        do {
            _ = try writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            isReadElsewhere = true
        }
        try writer.close()
        if isReadElsewhere { throw SyncStoreError.closedInUse(path: writer.path) }
    }

    // MARK: - Reading

    /// The counter: the version of the last change.
    public func currentVersion() throws -> Int64 {
        try writer.read { db in try Self.counter(db).value }
    }

    /// The row of `key`, live or deleted.
    public func row(_ key: SyncRowKey) throws -> SyncStoredRow? {
        try writer.read { db in try rows(db, [key]).first }
    }

    /// What `user` may read and write, as the grants stand.
    public func rights(of user: SyncUser) throws -> SyncRights {
        try writer.read { db in try rights(db, of: user) }
    }

    /// The rows changed after `version` (of the tables of `filter`, or of
    /// every table when nil; live rows and tombstones) that `user` reads
    /// (every one when nil), in version order, at most `limit`, with the
    /// counter and the digests when they were read; nil when `version` is
    /// older than the floor or later than the counter, or the user's
    /// access changed since: the client must take a snapshot.
    public func changes(after version: Int64, limit: Int, tables filter: SyncTableFilter? = nil,
                        for user: SyncUser? = nil) throws -> SyncStoredPage? {
        try writer.read { db in
            let counter = try Self.counter(db)
            guard counter.answersDelta(after: version) else { return nil }
            if let user, try Self.accessChanged(db, of: user, after: version) { return nil }
            var tables = ""
            var tableArguments: [any DatabaseValueConvertible] = []
            if let filter {
                tables = " AND table_name IN (\(databaseQuestionMarks(count: filter.tables.count)))"
                tableArguments = filter.tables
            }
            let rows: [SyncStoredRow]
            if let user {
                // The user's partitions, then the shared tables' rows (of no
                // partition), each walking the index of partitions by
                // version from the cursor: the other users' changes are
                // never read.
                let shared = schema.sharedTables
                rows = try storedRows(db.cachedStatement(sql: """
                    SELECT * FROM (SELECT * FROM sync_server_row INDEXED BY sync_server_row_partition
                                   WHERE \(Self.readablePartitions) AND version > ?\(tables) ORDER BY version LIMIT ?)
                    UNION ALL
                    SELECT * FROM (SELECT * FROM sync_server_row INDEXED BY sync_server_row_partition
                                   WHERE partition_key IS NULL AND table_name IN (\(databaseQuestionMarks(count: shared.count)))
                                   AND version > ?\(tables) ORDER BY version LIMIT ?)
                    ORDER BY version LIMIT ?
                    """), arguments: StatementArguments(
                        Self.readablePartitionsArguments(user) + [version] + tableArguments + [limit]
                            + shared as [any DatabaseValueConvertible] + [version] + tableArguments + [limit, limit]))
            } else {
                rows = try storedRows(db.cachedStatement(sql: "SELECT * FROM sync_server_row WHERE version > ?\(tables) ORDER BY version LIMIT ?"),
                                      arguments: StatementArguments([version] + tableArguments + [limit]))
            }
            return SyncStoredPage(rows: rows, counter: counter.value, digests: rows.count < limit ? try digests(db, for: user) : [])
        }
    }

    /// A page of the snapshot: the live rows (of the tables of `filter`,
    /// or of every table when nil) that `user` reads (every one when nil),
    /// in key order (table, then id), after `key`, at most `limit`, with
    /// the counter and the digests when it was read.
    public func snapshot(after key: SyncRowKey?, limit: Int, tables filter: SyncTableFilter? = nil,
                         for user: SyncUser? = nil) throws -> SyncStoredPage {
        try writer.read { db in
            var rows: [SyncStoredRow] = []
            var partitions: [String]?
            // Each statement walks a part of an index: a table's part of the
            // key's, or for a user, their part of the partitions' from the
            // key on, over a run of tables.
            for read in schema.snapshotReads(after: key, tables: filter, for: user) where rows.count < limit {
                let after = read.afterID?.uuidString ?? ""
                if let user, read.byPartitions {
                    let readable = try partitions ?? Array(rights(db, of: user).readablePartitions)
                    partitions = readable
                    rows += try storedRows(db.cachedStatement(sql: Self.partitionsPageSQL(partitions: readable.count, tables: read.tables.count)),
                                           arguments: Self.partitionsPageArguments(readable, user: user, read: read, after: after, limit: limit - rows.count))
                } else {
                    rows += try storedRows(db.cachedStatement(sql: """
                        SELECT * FROM sync_server_row WHERE deleted_at IS NULL AND table_name = ? AND id > ? ORDER BY id LIMIT ?
                        """), arguments: [read.firstTable, after, limit - rows.count])
                }
            }
            return SyncStoredPage(rows: rows, counter: try Self.counter(db).value,
                                  digests: rows.count < limit ? try digests(db, for: user) : [])
        }
    }
}
