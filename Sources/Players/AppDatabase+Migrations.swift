import CipherDB
import Foundation
import PlayersShared
import SyncEngine

// MARK: - Migrations

extension AppDatabase {
    /// The schema. Later versions add migrations; an applied migration is
    /// never edited. The tables that later migrations dropped (the outbox,
    /// conflicts and sync state of the release before the sync engine)
    /// are written here as they were, so that every database of an older
    /// release still migrates, and ``knownSchema()`` still knows it.
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
        }
        migrator.registerMigration("v2-sync-identity") { db in
            // SQLite 3.15.2 cannot add a NOT NULL UNIQUE column: the table is
            // rebuilt, each existing player getting a new UUID.
            try db.create(table: "player_v2") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("uuid", .text).notNull().unique()
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
                t.column("version", .integer)
            }
            let insert = try db.makeStatement(sql: "INSERT INTO player_v2 (id, uuid, name, score) VALUES (?, ?, ?, ?)")
            for row in try Row.fetchAll(db, sql: "SELECT id, name, score FROM player") {
                try insert.execute(arguments: [row["id"], UUID().uuidString, row["name"], row["score"]])
            }
            try replacePlayerTable(db, with: "player_v2")
        }
        migrator.registerMigration("v3-sync-state") { db in
            // Where a sync left off: remote URL, cursor, ETag.
            try db.create(table: "syncState") { t in
                t.primaryKey("name", .text)
                t.column("remoteURL", .text)
                t.column("cursorEndpoint", .text)
                t.column("cursor", .text)
                t.column("etag", .text)
            }
        }
        migrator.registerMigration("v4-outbox") { db in
            // The local changes to push, and the local values that lost to
            // the server's.
            try db.create(table: "pendingChange") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("mutationID", .text).notNull().unique()
                t.column("playerUUID", .text).notNull().indexed()
                t.column("kind", .text).notNull().check { ["save", "delete"].contains($0) }
                t.column("name", .text)
                t.column("score", .integer)
                t.column("baseVersion", .integer)
                t.column("sentAt", .datetime)
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "playerConflict") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("playerUUID", .text).notNull().indexed()
                t.column("localName", .text)
                t.column("localScore", .integer)
                t.column("serverName", .text)
                t.column("serverScore", .integer)
                t.column("serverVersion", .integer)
                t.column("changedAt", .datetime).notNull()
                t.column("detectedAt", .datetime).notNull()
            }
            // Players created before the outbox existed and never synced
            // are pushed like new ones.
            let insert = try db.makeStatement(sql: """
                INSERT INTO pendingChange (mutationID, playerUUID, kind, name, score, createdAt) VALUES (?, ?, 'save', ?, ?, ?)
                """)
            for row in try Row.fetchAll(db, sql: "SELECT uuid, name, score FROM player WHERE version IS NULL ORDER BY id") {
                try insert.execute(arguments: [UUID().uuidString, row["uuid"], row["name"], row["score"], Date()])
            }
        }
        migrator.registerMigration("v5-name-order") { db in
            // `list --order name` over 100,000 players: an index walk,
            // not a sort that calls a Swift collation.
            db.add(function: Player.nameOrderKeyFunction)
            try db.alter(table: "player") { t in
                t.add(column: "nameOrderKey", .text)
            }
            try db.execute(sql: "UPDATE player SET nameOrderKey = players_name_order_key(name)")
            try Player.indexNameOrderKeys(db)
        }
        migrator.registerMigration("v6-sync-digest") { db in
            // The server's digest at the stored cursor, and the synced
            // players' own, kept by triggers.
            try db.alter(table: "syncState") { t in
                t.add(column: "digestPlayers", .integer)
                t.add(column: "digestChecksum", .text)
            }
            try addSyncedPlayerDigest(db)
        }
        migrator.registerMigration("v7-sync-engine") { db in
            // The sync engine's tables replace the players' own: the
            // outbox, the versions, the conflicts and the cursor move
            // there (PlayersEngineMigration.swift).
            try migrateToSyncEngine(db)
        }
        return migrator
    }

    /// Makes `table`, a copy of the players, the `player` table: the old
    /// one is dropped, and ids deleted before are never reused.
    static func replacePlayerTable(_ db: Database, with table: String) throws {
        let sequence = try playerSequence(db)
        try db.drop(table: "player")
        try db.rename(table: table, to: "player")
        try keepPlayerSequence(db, sequence)
    }

    /// The `player` table's autoincrement sequence: the largest id it ever
    /// gave.
    static func playerSequence(_ db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'player'")
    }

    /// Raises the sequence of a rebuilt `player` table to `sequence`, the
    /// one of the table it replaced, so that deleted ids are never reused
    /// (a table rebuilt empty has no sequence yet: it gets that one).
    static func keepPlayerSequence(_ db: Database, _ sequence: Int64?) throws {
        guard let sequence else { return }
        if try playerSequence(db) == nil {
            try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('player', ?)", arguments: [sequence])
        } else {
            try db.execute(sql: "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'player'", arguments: [sequence])
        }
    }

    /// The migration `v6-sync-digest`'s table of the synced players'
    /// digest, which `v7-sync-engine` drops for the engine's digests. It
    /// is left empty, without the triggers that kept it: every database
    /// that reaches v6 now goes on to v7 in the same run of the migrations,
    /// and one already at v6 has its triggers until v7 drops them.
    private static func addSyncedPlayerDigest(_ db: Database) throws {
        try db.create(table: "syncedPlayerDigest") { t in
            t.primaryKey("id", .integer).check { $0 == 1 }
            t.column("players", .integer).notNull()
            t.column("checksum", .integer).notNull()
        }
    }
}
