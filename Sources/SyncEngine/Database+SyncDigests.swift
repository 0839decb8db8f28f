import CipherDB
import Foundation
import SyncSchema

/// The device's side of the digests (Docs/SyncEngine.md, "Digests"): the
/// digest of each declared table's synced rows (those the server sent, with
/// their version), compared with the server's at the same cursor, as
/// Players compares its players.
///
/// The triggers stay plain SQL (any writer of the file keeps them): they
/// only mark a written row (`sync_digest_dirty`). Its hash is taken out of
/// its table's digest and its new one added when the digest is next read,
/// here, so that a digest costs the rows written since, not every row.
/// A counted hash is kept beside the row's version (`sync_row.hash`), or,
/// once that entry is deleted, in the row's mark (`counted`).
extension Database {
    /// Makes each declared table's digest of its synced rows ready: the
    /// triggers of a database installed before the engine kept digests are
    /// made again, and a table whose digest covers other columns (another
    /// declaration) is counted again, from every synced row. In the
    /// caller's transaction, at the start of each pull.
    func prepareSyncDigests(schema: SyncSchema) throws {
        try SyncEngine.createTables(self)
        for table in schema.tables {
            if try !triggerExists("sync_\(table.name)_digest_insert") {
                for statement in SyncTriggers(table).statements {
                    try execute(sql: statement)
                }
            }
            let columns = Self.digestColumnsText(table)
            let stored = try String.fetchOne(self, sql: "SELECT columns FROM \(SyncEngine.digestTable) WHERE table_name = ?",
                                             arguments: [table.name])
            guard stored != columns else { continue }
            try execute(sql: "UPDATE \(SyncEngine.rowTable) SET hash = NULL WHERE table_name = ?", arguments: [table.name])
            try execute(sql: "UPDATE \(SyncEngine.digestDirtyTable) SET counted = NULL WHERE table_name = ?", arguments: [table.name])
            try execute(sql: """
                INSERT OR IGNORE INTO \(SyncEngine.digestDirtyTable) (table_name, row_id)
                SELECT table_name, row_id FROM \(SyncEngine.rowTable) WHERE table_name = ?
                """, arguments: [table.name])
            try execute(sql: "INSERT OR REPLACE INTO \(SyncEngine.digestTable) (table_name, columns, rows, checksum) VALUES (?, ?, 0, 0)",
                        arguments: [table.name, columns])
        }
    }

    /// Keeps the server's digests of the last staged page, the declared
    /// tables' whose columns they cover: the merge compares them.
    package func stageSyncDigests(_ digests: [SyncTableDigest]?) throws {
        try execute(sql: "UPDATE \(SyncEngine.stateTable) SET staged_digests = ? WHERE id = 1",
                    arguments: [digests.map { SyncStoredJSON.text($0) }])
    }

    /// Stores the staged digests as the server's at the merged cursor, in
    /// the merge's transaction; returns them (nil: the pull's last page
    /// carried none).
    package func keepStagedSyncDigests() throws -> [SyncTableDigest]? {
        try execute(sql: "UPDATE \(SyncEngine.stateTable) SET digests = staged_digests, staged_digests = NULL WHERE id = 1")
        return try String.fetchOne(self, sql: "SELECT digests FROM \(SyncEngine.stateTable) WHERE id = 1")
            .map { try SyncStoredJSON.digests(from: $0) }
    }

    /// How the synced rows differ from the server's digests at the stored
    /// cursor, or nil when they match or cannot be compared: no digest
    /// stored, tables of an earlier engine that the next pull brings up to
    /// date (``SyncEngine/keepsHashesInRows(_:)``), or local changes
    /// waiting (the rows then differ from the server's by design). Only the
    /// tables of a digest that covers their declared columns are compared;
    /// the divergence holds the digests of those that differ, in the
    /// server's order. `settling` (in a write transaction) stores the rows
    /// counted since the last time.
    package func syncDigestDivergence(schema: SyncSchema, settling: Bool) throws -> SyncDivergence? {
        guard try tableExists(SyncEngine.digestTable), try SyncEngine.keepsHashesInRows(self),
              let json = try Row.fetchOne(self, sql: "SELECT * FROM \(SyncEngine.stateTable) WHERE id = 1")
                .flatMap({ $0.hasColumn("digests") ? $0["digests"] as String? : nil }) else { return nil }
        let server = try SyncStoredJSON.digests(from: json)
        guard try Int.fetchOne(self, sql: """
            SELECT (SELECT count(*) FROM \(SyncEngine.outboxTable)) + (SELECT count(*) FROM \(SyncEngine.lostTable))
            """) == 0 else { return nil }
        var compared: [(local: SyncTableDigest, server: SyncTableDigest)] = []
        // A table whose rows wait for a key, or were refused, differs from
        // its digest until a pull brings a state the device takes: it is
        // compared then.
        let kept = try tablesWithSyncRowsKeptFromServer()
        for digest in server {
            guard let table = schema.table(digest.table), digest.covers(table), !kept.contains(table.name),
                  let local = try syncedRowsDigest(of: table, settling: settling) else { continue }
            compared.append((local, digest))
        }
        let differing = compared.filter { $0.local.rows != $0.server.rows || $0.local.checksum != $0.server.checksum }
        guard !differing.isEmpty else { return nil }
        return SyncDivergence(local: differing.map(\.local), server: differing.map(\.server))
    }

    /// Queues an upsert of every row of a declared table that the server
    /// never sent and no change waits for, in apply order, and returns how
    /// many: such a row would otherwise never reach the server. It happens
    /// only when a row was written while the triggers were silent by
    /// something else than the merge; the merge looks for them when the
    /// server sent digests, and only in a table that holds more rows than
    /// its digest counts.
    package func requeueNeverSyncedRows(schema: SyncSchema) throws -> Int {
        var requeued = 0
        for table in schema.tablesInApplyOrder {
            guard let digest = try syncedRowsDigest(of: table, settling: true),
                  try Int.fetchOne(self, sql: "SELECT count(*) FROM \"\(table.name)\"") != digest.rows else { continue }
            try execute(sql: SyncTriggers(table).requeueNeverSynced)
            requeued += changesCount
        }
        return requeued
    }

    /// The digest of a table's synced rows: the stored one, with the rows
    /// written since counted again (and, `settling`, stored); nil when the
    /// stored one covers other columns or is missing (the next pull makes
    /// it anew).
    private func syncedRowsDigest(of table: SyncTable, settling: Bool) throws -> SyncTableDigest? {
        guard let stored = try Row.fetchOne(self, sql: "SELECT columns, rows, checksum FROM \(SyncEngine.digestTable) WHERE table_name = ?",
                                            arguments: [table.name]),
              stored["columns"] == Self.digestColumnsText(table) else { return nil }
        var digest = SyncTableDigest(table: table.name, columns: SyncTableDigest.columns(of: table), rows: stored["rows"],
                                     checksum: UInt64(bitPattern: stored["checksum"]))
        // An end-to-end table's digest covers its clear columns and the
        // counter and change of the sealed value each row was opened from.
        let columns = table.isEndToEnd ? table.clearValueColumns : table.valueColumns
        if table.isEndToEnd, try !triggerExists(Self.keepsSealedCounterTrigger) { return nil }
        let key = "\"\(table.primaryKey)\""
        let rows = try Row.fetchCursor(self, sql: """
            SELECT dirty.row_id, synced.version, coalesce(dirty.counted, synced.hash), synced.hash, local.\(key) IS NOT NULL
                \(columns.map { ", local.\"\($0.name)\"" }.joined())\(table.isEndToEnd ? ", synced.sealed_counter, synced.sealed_change" : "")
            FROM \(SyncEngine.digestDirtyTable) AS dirty
            LEFT JOIN \(SyncEngine.rowTable) AS synced ON synced.table_name = dirty.table_name AND synced.row_id = dirty.row_id
            LEFT JOIN "\(table.name)" AS local ON local.\(key) = dirty.row_id
            WHERE dirty.table_name = ?
            """, arguments: [table.name])
        let hasher = SyncRowHasher()
        let keep = settling ? try cachedStatement(sql: """
            UPDATE \(SyncEngine.rowTable) SET hash = ? WHERE table_name = ? AND row_id = ?
            """) : nil
        while let row = try rows.next() {
            let id: DatabaseValue = row[0]
            let counted: Int64? = row[2]
            let kept: Int64? = row[3]
            var hash: Int64?
            // A row counts while it exists and has the server's version.
            if let version: Int64 = row[1], row[4] as Bool, let idText = String.fromDatabaseValue(id) {
                var values = columns.enumerated().map { SyncValue(row[5 + $0.offset], for: $0.element.type) }
                if table.isEndToEnd {
                    let counter: Int64? = row[5 + columns.count], change: UUID? = row[6 + columns.count]
                    values += [counter.map(SyncValue.integer) ?? .null, change.map(SyncValue.uuid) ?? .null]
                }
                hash = Int64(bitPattern: hasher.hash(idText: idText, version: version, values: values))
            }
            if hash != counted {
                if let counted { digest.toggle(UInt64(bitPattern: counted), rows: -1) }
                if let hash { digest.toggle(UInt64(bitPattern: hash)) }
            }
            // A row without a version has no entry to keep a hash in.
            if hash != kept, row[1] as Int64? != nil {
                try keep?.execute(arguments: [hash, table.name, id])
            }
        }
        if settling {
            try execute(sql: "DELETE FROM \(SyncEngine.digestDirtyTable) WHERE table_name = ?", arguments: [table.name])
            try execute(sql: "UPDATE \(SyncEngine.digestTable) SET rows = ?, checksum = ? WHERE table_name = ?",
                        arguments: [digest.rows, Int64(bitPattern: digest.checksum), table.name])
        }
        return digest
    }

    /// `title,body,`: the columns a table's digest covers, as stored.
    private static func digestColumnsText(_ table: SyncTable) -> String {
        SyncTableDigest.columns(of: table).map { "\($0)," }.joined()
    }
}
