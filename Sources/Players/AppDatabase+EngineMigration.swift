import CipherDB
import Foundation
import PlayersShared
import SyncEngine
import SyncSchema

// MARK: - The move to the sync engine

extension AppDatabase {
    /// The migration `v7-sync-engine`: the players sync on the engine
    /// (``PlayersSchema/schema``), and what the release before kept in its
    /// own tables moves to the engine's, nothing lost:
    ///
    /// - each synced player's version goes to `sync_row`, and `player`
    ///   is rebuilt without its `version` column (ids kept, and deleted
    ///   ids never reused);
    /// - each queued change goes to `sync_outbox` with its mutation id,
    ///   base version and dates; a change already sent keeps the values it
    ///   was sent with, so that its retry is the same request, which the
    ///   server applies once;
    /// - each conflict goes to `sync_conflict`, with both values;
    /// - the cursor stays, for the server's `/v1/sync/rows?tables=player`,
    ///   where the same history and counter go on (Docs/Sync.md); the
    ///   `ETag` and the digest of the old endpoint are dropped, so the
    ///   next pull is a delta, whose last page brings the digests;
    /// - the remote URL goes to `playersRemote`.
    static func migrateToSyncEngine(_ db: Database) throws {
        let sequence = try playerSequence(db)
        try db.execute(sql: """
            DROP TRIGGER player_nameOrderKey_insert;
            DROP TRIGGER player_nameOrderKey_update;
            DROP INDEX player_on_nameOrderKey;
            DROP TABLE syncedPlayerDigest;
            """)
        for trigger in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'player'") {
            try db.execute(sql: "DROP TRIGGER \(trigger.quotedDatabaseIdentifier)")
        }
        try db.rename(table: "player", to: "player_v6")
        try db.create(table: "player") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("uuid", .text).notNull().unique()
            t.column("name", .text).notNull()
            t.column("score", .integer).notNull()
            t.column("nameOrderKey", .text)
        }
        // The engine compares UUIDs as uppercase text, as this app always
        // wrote them.
        try db.execute(sql: """
            INSERT INTO player (id, uuid, name, score, nameOrderKey)
            SELECT id, upper(uuid), name, score, nameOrderKey FROM player_v6 ORDER BY id
            """)
        try keepPlayerSequence(db, sequence)
        try Player.indexNameOrderKeys(db)
        try db.installSyncEngine(for: PlayersSchema.schema)
        try db.execute(sql: """
            INSERT INTO sync_row (table_name, row_id, version)
            SELECT 'player', upper(uuid), version FROM player_v6 WHERE version IS NOT NULL
            """)
        try moveOutbox(db)
        try moveConflicts(db)
        try moveSyncState(db)
        try db.execute(sql: """
            DROP TABLE player_v6;
            DROP TABLE pendingChange;
            DROP TABLE playerConflict;
            DROP TABLE syncState;
            """)
    }

    /// `pendingChange` to `sync_outbox`, in push order.
    private static func moveOutbox(_ db: Database) throws {
        let insert = try db.makeStatement(sql: """
            INSERT INTO sync_outbox
                (mutation_id, table_name, row_id, operation, changed_columns, base_version, created_at, sent_at, sent_values)
            VALUES (?, 'player', ?, ?, ?, ?, ?, ?, ?)
            """)
        let entries = try Row.fetchCursor(db, sql: """
            SELECT mutationID, upper(playerUUID), kind, name, score, baseVersion, createdAt, sentAt FROM pendingChange ORDER BY id
            """)
        while let entry = try entries.next() {
            guard let mutationID = UUID(uuidString: entry[0]), let playerUUID = UUID(uuidString: entry[1]) else {
                throw AppDatabaseError.unreadableOutboxEntry(mutationID: entry[0])
            }
            let isSave = (entry[2] as String) == "save"
            let sentAt = (entry[7] as Date?)?.timeIntervalSince1970
            var sentValues: String?
            if sentAt != nil {
                sentValues = SyncStoredJSON.text(SyncRowJSON(
                    id: playerUUID.uuidString,
                    values: isSave ? ["name": .string(entry[3]), "score": .integer(entry[4])] : [:]))
            }
            // A UUID's database value is its 16 bytes, as the triggers'
            // randomblob(16).
            try insert.execute(arguments: [
                mutationID, playerUUID.uuidString, isSave ? "upsert" : "delete",
                isSave ? SyncOutboxEntry.storedColumns(PlayersSchema.player.valueColumns.map(\.name)) : "",
                entry[5] as Int64?, (entry[6] as Date).timeIntervalSince1970, sentAt, sentValues,
            ])
        }
    }

    /// `playerConflict` to `sync_conflict`: the local values that differed
    /// from the server's (all of them when the server deleted the player;
    /// none when the local change deleted it), and the server's row.
    private static func moveConflicts(_ db: Database) throws {
        let insert = try db.makeStatement(sql: """
            INSERT INTO sync_conflict (table_name, row_id, local_values, server_values, server_version, changed_at, detected_at)
            VALUES ('player', ?, ?, ?, ?, ?, ?)
            """)
        let conflicts = try Row.fetchCursor(db, sql: """
            SELECT upper(playerUUID), localName, localScore, serverName, serverScore, serverVersion, changedAt, detectedAt
            FROM playerConflict ORDER BY id
            """)
        while let conflict = try conflicts.next() {
            let uuid: String = conflict[0]
            let (localName, localScore, serverName, serverScore): (String?, Int64?, String?, Int64?) = (conflict[1], conflict[2], conflict[3], conflict[4])
            var local: [String: SyncJSONScalar]?
            if let localName, let localScore {
                var values: [String: SyncJSONScalar] = [:]
                if serverName == nil || localName != serverName { values["name"] = .string(localName) }
                if serverScore == nil || localScore != serverScore { values["score"] = .integer(localScore) }
                local = values.isEmpty ? ["name": .string(localName), "score": .integer(localScore)] : values
            }
            var server: [String: SyncJSONScalar]?
            if let serverName, let serverScore {
                server = ["name": .string(serverName), "score": .integer(serverScore)]
            }
            try insert.execute(arguments: [
                uuid,
                local.map { SyncStoredJSON.text(SyncRowJSON(id: uuid, values: $0)) },
                server.map { SyncStoredJSON.text(SyncRowJSON(id: uuid, values: $0)) },
                conflict[5] as Int64?,
                (conflict[6] as Date).timeIntervalSince1970,
                (conflict[7] as Date).timeIntervalSince1970,
            ])
        }
    }

    /// The cursor of `syncState` to `sync_state`, for the engine's endpoint
    /// of the same server; the remote URL to `playersRemote`.
    private static func moveSyncState(_ db: Database) throws {
        try createRemoteTable(db)
        guard let state = try Row.fetchOne(db, sql: "SELECT remoteURL, cursorEndpoint, cursor FROM syncState WHERE name = 'players'") else {
            return
        }
        if let remote: String = state["remoteURL"] {
            try db.execute(sql: "INSERT INTO playersRemote (id, url) VALUES (1, ?)", arguments: [remote])
        }
        let oldSuffix = "/v1/players"
        guard let endpoint: String = state["cursorEndpoint"], let cursor: String = state["cursor"], endpoint.hasSuffix(oldSuffix),
              let baseURL = URL(string: String(endpoint.dropLast(oldSuffix.count))) else { return }
        try db.execute(sql: "UPDATE sync_state SET endpoint = ?, cursor = ? WHERE id = 1", arguments: [
            PlayersSchema.schema.rowsEndpoint(baseURL: baseURL).absoluteString, cursor,
        ])
    }
}
