import CipherDB
import Foundation
import PlayersProtocol
import PlayersStorage
import SyncServer
import SyncServerDatabase

/// The server's players in a CipherDB database: the source of truth that
/// clients sync from. Its calls block (SQLite waits for its lock): the
/// HTTP layer reaches it through ``EmbeddedPlayersStore``, which runs them
/// on threads of their own.
///
/// Every change takes the next value of one server-wide counter, and the
/// changed player carries it as its `version`; a deleted player leaves a
/// tombstone with the version of its deletion. Each write is one
/// transaction that bumps the counter with its changes, so that a
/// snapshot or a delta never shows half of a change.
public final class ServerPlayersDatabase: Sendable {
    let writer: any DatabaseWriter
    /// Wakes the long-polls after each commit that moves the counter,
    /// whichever call made it, through this database or another on the
    /// same file in this process (``FileChangeNotifiers``).
    public let changes: StoreChangeNotifier
    /// Held here: the database holds its observers weakly.
    private let commitObserver: CounterCommitObserver
    /// The database's identity and epochs (``ServerHistory``).
    public let history: ServerHistory

    /// Migrates the database, begins a new epoch if it is a backup copy
    /// (``beginEpochIfRestored(_:)``), then serves it.
    public init(_ writer: any DatabaseWriter) throws {
        self.writer = writer
        // The digest's triggers call it (``addDigest(_:)``).
        writer.writeWithoutTransaction { db in db.add(function: PlayersDigest.toggleFunction) }
        try Self.migrator.migrate(writer)
        history = try writer.write { db in try Self.beginEpochIfRestored(db) }
        changes = FileChangeNotifiers.notifier(forPath: writer.path, history: "players",
                                               latestVersion: try writer.read { db in try Self.counter(db).value })
        commitObserver = CounterCommitObserver(counterTable: "changeCounter", notifier: changes) { db in try Self.counter(db).value }
        writer.add(transactionObserver: commitObserver)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("server-v1") { db in
            try db.create(table: "player") { t in
                t.primaryKey("uuid", .text)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
                t.column("version", .integer).notNull().unique()
            }
            try db.create(table: "tombstone") { t in
                t.primaryKey("uuid", .text)
                t.column("version", .integer).notNull().unique()
                t.column("deletedAt", .datetime).notNull()
            }
            // The change counter, and the oldest cursor a delta can start
            // from (tombstones older than it were purged).
            try db.create(table: "changeCounter") { t in
                t.primaryKey("id", .integer).check { $0 == 1 }
                t.column("value", .integer).notNull()
                t.column("floor", .integer).notNull()
            }
            try db.execute(sql: "INSERT INTO changeCounter (id, value, floor) VALUES (1, 0, 0)")
        }
        // The mutation ids of `POST /v1/changes`, with their answers
        // (``applyChanges(_:at:)``), purged with the tombstones.
        migrator.registerMigration("server-v2-applied-mutations") { db in
            try db.create(table: "appliedMutation") { t in
                t.primaryKey("mutationID", .text)
                t.column("result", .text).notNull()
                t.column("appliedAt", .datetime).notNull().indexed()
            }
        }
        // The database's identity and the epochs of its history
        // (``ServerHistory``); `isBackupCopy` marks the copies that
        // `players-server backup` makes.
        migrator.registerMigration("server-v3-history") { db in
            try db.create(table: "serverIdentity") { t in
                t.primaryKey("id", .integer).check { $0 == 1 }
                t.column("server", .text).notNull()
                t.column("isBackupCopy", .boolean).notNull().defaults(to: false)
            }
            try db.create(table: "historyEpoch") { t in
                t.primaryKey("position", .integer)
                t.column("epoch", .text).notNull().unique()
                t.column("start", .integer).notNull()
            }
            try db.execute(sql: "INSERT INTO serverIdentity (id, server) VALUES (1, ?)", arguments: [UUID().uuidString])
            try db.execute(sql: "INSERT INTO historyEpoch (position, epoch, start) VALUES (1, ?, 0)", arguments: [PlayersCursor.newEpoch()])
        }
        // The digest of the live players (``PlayersDigest``), which every
        // answer's last page carries.
        migrator.registerMigration("server-v4-digest") { db in
            try addDigest(db)
        }
        return migrator
    }

    // MARK: - Reading

    /// The current value of the change counter.
    public func currentVersion() throws -> Int64 {
        try writer.read { db in try Self.counter(db).value }
    }

    /// A page of the snapshot: live players in uuid order, after `afterUUID`.
    /// The cursor is the counter when the page was read.
    public func snapshot(limit: Int, afterUUID: UUID? = nil) throws -> SnapshotPage {
        try writer.read { db in
            let counter = try Self.counter(db)
            var request = ServerPlayer.order(Column("uuid")).limit(limit + 1)
            if let afterUUID {
                request = request.filter(Column("uuid") > afterUUID.uuidString)
            }
            let players = try request.fetchAll(db)
            return SnapshotPage(version: counter.value, players: Array(players.prefix(limit)), isLast: players.count <= limit,
                                digest: try Self.digest(db))
        }
    }

    /// The changes after `since`, in version order, at most `limit`; or nil
    /// when `since` is older than the tombstone retention (the client must
    /// take a snapshot).
    public func delta(since: Int64, limit: Int) throws -> DeltaPage? {
        try writer.read { db in
            let counter = try Self.counter(db)
            guard since >= counter.floor, since <= counter.value else { return nil }
            let players = try ServerPlayer.filter(Column("version") > since).order(Column("version")).limit(limit + 1).fetchAll(db)
            let tombstones = try ServerTombstone.filter(Column("version") > since).order(Column("version")).limit(limit + 1).fetchAll(db)
            // Merge both in version order, and cut at `limit` changes.
            var changes: [(version: Int64, change: DeltaPage.Change)] =
                players.map { ($0.version, .player($0)) } + tombstones.map { ($0.version, .tombstone($0)) }
            changes.sort { $0.version < $1.version }
            return DeltaPage(cutting: changes, limit: limit, since: since, serverVersion: counter.value, digest: try Self.digest(db))
        }
    }

    /// `PRAGMA integrity_check`: `["ok"]` for a sound database.
    public func integrityCheck() throws -> [String] {
        try writer.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }

    /// The player with this uuid, if it is alive.
    public func player(_ uuid: UUID) throws -> ServerPlayer? {
        try writer.read { db in try ServerPlayer.fetchOne(db, key: uuid.uuidString) }
    }

    // MARK: - Writing

    /// Inserts a player (a new uuid unless given); returns it with its
    /// version. Throws if a live player has this uuid.
    public func insert(uuid: UUID = UUID(), name: String, score: Int) throws -> ServerPlayer {
        try writer.write { db in try Self.insert(db, uuid: uuid, name: name, score: score) }
    }

    /// Changes a player; returns it, or nil if there is none with this uuid.
    public func update(_ uuid: UUID, name: String?, score: Int?) throws -> ServerPlayer? {
        switch try update(uuid, name: name, score: score, expectedVersion: nil) {
        case .updated(let player): return player
        case .notFound, .conflict: return nil
        }
    }

    /// Changes a player, unless its version differs from `expectedVersion`
    /// (the version a client last saw), in one transaction.
    public func update(_ uuid: UUID, name: String?, score: Int?, expectedVersion: Int64?) throws -> PlayerUpdateOutcome {
        try writer.write { db in
            guard var player = try ServerPlayer.fetchOne(db, key: uuid.uuidString) else { return .notFound }
            if let expectedVersion, expectedVersion != player.version {
                return .conflict(currentVersion: player.version)
            }
            if let name { player.name = name }
            if let score { player.score = score }
            return .updated(try Self.update(db, player))
        }
    }

    /// Deletes a player, leaving a tombstone; returns whether it existed.
    @discardableResult
    public func delete(_ uuid: UUID, at date: Date = Date()) throws -> Bool {
        try writer.write { db in try Self.delete(db, uuid: uuid, at: date) != nil }
    }

    /// The demo's random changes (``RandomPlayerChanges``, the rule of
    /// `players randomize`), in one transaction; each takes its version
    /// and a deletion leaves a tombstone.
    public func refresh() throws {
        try writer.write { db in
            let changes = RandomPlayerChanges(existing: try ServerPlayer.fetchAll(db))
            for player in changes.insertions {
                _ = try Self.insert(db, uuid: player.uuid, name: player.name, score: player.score)
            }
            if let deleted = changes.deletion {
                _ = try Self.delete(db, uuid: deleted.uuid, at: Date())
            }
            for (var player, score) in changes.scoreChanges {
                player.score = score
                _ = try Self.update(db, player)
            }
        }
    }

    /// Inserts `count` random players if there is none, in one
    /// transaction, calling `progress` with the number inserted so far
    /// every thousand players.
    public func seed(_ count: Int, progress: (Int) -> Void = { _ in }) throws {
        try writer.write { db in
            if try ServerPlayer.fetchCount(db) == 0 {
                try Self.insertRandomPlayers(db, count: count, progress: progress)
            }
        }
    }

    /// Deletes the tombstones older than `retention`, and moves the oldest
    /// accepted cursor past them: older cursors get a "gone" answer. Forgets
    /// the mutation ids of ``applyChanges(_:at:)`` older than `retention`
    /// too, in the same transaction: a change is applied once as long as a
    /// client can sync from a cursor it had when it sent the change.
    public func purgeTombstones(olderThan retention: TimeInterval, now: Date = Date()) throws {
        try writer.write { db in
            let limit = now.addingTimeInterval(-retention)
            let expired = ServerTombstone.filter(Column("deletedAt") < limit)
            if let newFloor = try expired.select(max(Column("version")), as: Int64.self).fetchOne(db) {
                try db.execute(sql: "UPDATE changeCounter SET floor = max(floor, ?)", arguments: [newFloor])
                try expired.deleteAll(db)
            }
            try AppliedMutation.filter(Column("appliedAt") < limit).deleteAll(db)
        }
    }

    // MARK: - Closing

    /// Moves the WAL into the database file (leaving the `-wal` file
    /// empty), then closes the database: a copy of the file alone then
    /// holds every player. Later calls throw.
    public func close() throws {
        _ = try writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try writer.close()
    }

    // MARK: - Helpers

    static func counter(_ db: Database) throws -> (value: Int64, floor: Int64) {
        guard let row = try Row.fetchOne(db, sql: "SELECT value, floor FROM changeCounter") else {
            throw DatabaseError(message: "the change counter is missing")
        }
        return (row["value"], row["floor"])
    }

    /// Takes the next value of the counter, inside the caller's transaction.
    private static func nextVersion(_ db: Database) throws -> Int64 {
        try db.execute(sql: "UPDATE changeCounter SET value = value + 1")
        return try counter(db).value
    }

    /// Stores a live player's new name and score with the next version;
    /// returns it with that version.
    static func update(_ db: Database, _ player: ServerPlayer) throws -> ServerPlayer {
        var player = player
        player.version = try nextVersion(db)
        try player.update(db)
        return player
    }

    /// Deletes a player and returns its tombstone, or nil when there is no
    /// live player with this uuid.
    static func delete(_ db: Database, uuid: UUID, at date: Date) throws -> ServerTombstone? {
        guard try ServerPlayer.deleteOne(db, key: uuid.uuidString) else { return nil }
        let tombstone = ServerTombstone(uuid: uuid, version: try nextVersion(db), deletedAt: date)
        try tombstone.save(db)
        return tombstone
    }

    /// Inserts a player with the next version, inside the caller's
    /// transaction.
    static func insert(_ db: Database, uuid: UUID, name: String, score: Int) throws -> ServerPlayer {
        let player = ServerPlayer(uuid: uuid, name: name, score: score, version: try nextVersion(db))
        try player.insert(db)
        return player
    }

    private static func insertRandomPlayers(_ db: Database, count: Int, progress: (Int) -> Void) throws {
        for index in 0..<count {
            let random = RandomPlayer.draw()
            _ = try insert(db, uuid: random.uuid, name: random.name, score: random.score)
            if (index + 1) % 1000 == 0 || index + 1 == count { progress(index + 1) }
        }
    }
}
