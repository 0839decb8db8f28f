import CipherDB
import CipherSync
import Foundation
import SyncEngine
import SyncSchema
import Testing

/// The device's digests of its synced rows, compared with the server's at
/// the same cursor: a match says nothing, a difference is a divergence that
/// the client repairs with a snapshot, and a row the server never got is
/// queued.
@Suite struct SyncDigestsTests {
    let notes: NotesDatabase
    let store: SyncEngineStore
    let notebookTable: SyncTable
    let noteTable: SyncTable
    let endpoint = URL(string: "http://127.0.0.1:1/v1/sync/rows")!
    let work = UUID(), groceries = UUID()

    init() throws {
        notes = try NotesDatabase()
        store = SyncEngineStore(notes.dbPool, schema: notes.schema)
        notebookTable = try #require(notes.schema.table("notebook"))
        noteTable = try #require(notes.schema.table("note"))
    }

    /// The server's two rows: the notebook Work and its note.
    func serverRows(title: String = "Groceries") throws -> [SyncServerRow] {
        [SyncServerRow(row: try notebookTable.row(id: work, values: ["name": .text("Work"), "colour": .null]), version: 1),
         SyncServerRow(row: try noteTable.row(id: groceries, values: ["notebook": .uuid(work), "title": .text(title), "body": .null]),
                       version: 2)]
    }

    /// Each table's digest of `rows`, as the server computes it.
    func digests(of rows: [SyncServerRow]) -> [SyncTableDigest] {
        let hasher = SyncRowHasher()
        return [notebookTable, noteTable].map { table in
            var digest = SyncTableDigest(table: table)
            for server in rows where server.row.table == table.name {
                digest.toggle(hasher.hash(table, id: server.row.id, version: server.version, values: server.row.values))
            }
            return digest
        }
    }

    /// Merges a one-page snapshot of `rows` at counter `counter`, carrying
    /// `digests`, through the page's JSON, as the client reads it.
    @discardableResult
    func pull(_ rows: [SyncServerRow], digests: [SyncTableDigest]?, counter: Int64 = 2) async throws -> SyncCounts {
        let cursor = SyncCursor(counter: counter, epoch: "0000000000000001", server: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)
        let page = SyncPage(kind: .snapshot, isComplete: true, cursor: cursor.description, rows: rows, tombstones: [], digests: digests)
        let pulled = try store.decodePage(page.jsonData())
        return try await store.merge(SyncFetch(kind: .snapshot, pages: [pulled], cursor: cursor.description, etag: nil, bytesReceived: 0),
                                     from: endpoint, dryRun: false)
    }

    @Test func aPullWhoseDigestsTheSyncedRowsMatchFindsNothing() async throws {
        let rows = try serverRows()
        let counts = try await pull(rows, digests: digests(of: rows))
        #expect(counts.inserted == 2)
        #expect(counts.divergence == nil)
        #expect(counts.requeued == 0)
        #expect(try await store.checkDigest() == nil)
    }

    @Test func aDigestThatDiffersIsADivergenceWithBothDigestsOfThatTableAlone() async throws {
        let rows = try serverRows()
        var claimed = digests(of: rows)
        claimed[1].toggle(0xdead_beef)
        let counts = try await pull(rows, digests: claimed)
        let divergence = try #require(counts.divergence)
        // The notebooks match: only the notes' digests say what differed.
        #expect(divergence.local == [digests(of: rows)[1]])
        #expect(divergence.server == [claimed[1]])
    }

    @Test func aDivergenceListsTheTablesThatDifferInTheOrderOfTheServersDigests() async throws {
        let rows = try serverRows()
        let notesFirst = Array(digests(of: rows).reversed())
        var claimed = notesFirst
        claimed[0].toggle(1)
        claimed[1].toggle(2)
        let divergence = try #require(try await pull(rows, digests: claimed).divergence)
        #expect(divergence.local == notesFirst)
        #expect(divergence.server == claimed)
    }

    @Test func aDivergenceNamesEachTableThatDifferedOnEachSide() {
        let divergence = SyncDivergence(
            local: [SyncTableDigest(table: "notebook", columns: ["name", "colour"], rows: 1, checksum: 0x1f),
                    SyncTableDigest(table: "note", columns: ["notebook", "title", "body"], rows: 2, checksum: 0xab)],
            server: [SyncTableDigest(table: "notebook", columns: ["name", "colour"], rows: 1, checksum: 0x2e),
                     SyncTableDigest(table: "note", columns: ["notebook", "title", "body"], rows: 3, checksum: 0xcd)])
        #expect(divergence.description == "here notebook: 1 row, checksum 000000000000001f and note: 2 rows, checksum 00000000000000ab; "
                    + "on the server notebook: 1 row, checksum 000000000000002e and note: 3 rows, checksum 00000000000000cd")
    }

    @Test func aSyncedValueChangedBehindTheTriggersDivergesUntilASnapshotRepairsIt() async throws {
        let rows = try serverRows()
        try await pull(rows, digests: digests(of: rows))
        // Written as if by a merge: no outbox entry, the server's version kept.
        try await notes.dbPool.write { db in
            try db.mergingSyncChanges { try db.execute(sql: "UPDATE note SET title = 'Tampered'") }
        }
        #expect(try notes.entries().isEmpty)
        let divergence = try #require(try await store.checkDigest())
        #expect(divergence.server == [digests(of: rows)[1]])
        #expect(divergence.local.map(\.table) == ["note"])
        #expect(divergence.local.first?.rows == 1)

        let repair = try await pull(rows, digests: digests(of: rows))
        #expect(repair.updated == 1)
        #expect(repair.divergence == nil)
        #expect(try await store.checkDigest() == nil)
    }

    @Test func aDigestIsNotComparedWhileLocalChangesWait() async throws {
        let rows = try serverRows()
        try await pull(rows, digests: digests(of: rows))
        try await notes.dbPool.write { db in try db.execute(sql: "UPDATE note SET title = 'Mine'") }
        #expect(try await store.checkDigest() == nil)
    }

    @Test func aRowWrittenWhileTheTriggersWereSilentIsQueuedAtThePullThatCarriesDigests() async throws {
        let rows = try serverRows()
        try await pull(rows, digests: digests(of: rows))
        let home = UUID()
        try await notes.dbPool.write { db in
            try db.mergingSyncChanges { try db.execute(sql: "INSERT INTO notebook (id, name) VALUES (?, 'Home')", arguments: [home.uuidString]) }
        }
        #expect(try notes.entries().isEmpty)
        let counts = try await pull(rows, digests: digests(of: rows), counter: 3)
        #expect(counts.requeued == 1)
        // Queued: the rows then differ by design, and are not compared.
        #expect(counts.divergence == nil)
        let entries = try notes.entries()
        #expect(entries.map(\.rowID) == [home])
        #expect(entries.first?.operation == .upsert)
    }

    @Test func aDigestOfOtherColumnsThanTheDeclarationsIsNotCompared() async throws {
        let rows = try serverRows()
        var laterDeclaration = digests(of: rows)
        laterDeclaration[1].columns.append("tags")
        laterDeclaration[1].toggle(42)
        let counts = try await pull(rows, digests: laterDeclaration)
        #expect(counts.divergence == nil)
    }

    @Test func aDatabaseInstalledBeforeTheDigestsCountsItsSyncedRowsAtItsNextPull() async throws {
        let rows = try serverRows()
        try await pull(rows, digests: nil)
        // As the engine left a database before it kept digests.
        try await notes.dbPool.write { db in
            for table in ["notebook", "note"] {
                for event in ["insert", "update", "delete"] { try db.execute(sql: "DROP TRIGGER sync_\(table)_digest_\(event)") }
            }
            try db.execute(sql: "DROP TABLE sync_digest; DROP TABLE sync_digest_dirty")
            try rebuildSyncRowWithoutHashes(db)
        }
        #expect(try await store.checkDigest() == nil)
        let counts = try await pull(rows, digests: digests(of: rows), counter: 3)
        #expect(counts.divergence == nil)
        // And the triggers keep them from then on.
        try await expectAClaimedDifferenceIsFound(rows, inTable: 0, counter: 4)
    }

    @Test func aDatabaseThatKeptItsHashesInATableOfTheirOwnKeepsThemAtItsNextPull() async throws {
        let rows = try serverRows()
        try await pull(rows, digests: digests(of: rows))
        try await notes.dbPool.write { db in
            // The server's delete of the note, merged, not yet counted out:
            // its hash waits in the row's mark.
            try db.mergingSyncChanges { try db.execute(sql: "DELETE FROM note") }
            // As the engine of 2026-11-28 left it (the same tables, but
            // each counted hash in sync_digest_row).
            try db.execute(sql: """
                CREATE TABLE sync_digest_row (
                    table_name TEXT NOT NULL,
                    row_id NOT NULL,
                    hash INTEGER NOT NULL,
                    PRIMARY KEY (table_name, row_id)) WITHOUT ROWID;
                INSERT INTO sync_digest_row SELECT table_name, row_id, hash FROM sync_row WHERE hash IS NOT NULL;
                INSERT INTO sync_digest_row SELECT table_name, row_id, counted FROM sync_digest_dirty WHERE counted IS NOT NULL;
                CREATE TABLE sync_digest_dirty_before (
                    table_name TEXT NOT NULL,
                    row_id NOT NULL,
                    PRIMARY KEY (table_name, row_id)) WITHOUT ROWID;
                INSERT INTO sync_digest_dirty_before SELECT table_name, row_id FROM sync_digest_dirty;
                DROP TABLE sync_digest_dirty;
                ALTER TABLE sync_digest_dirty_before RENAME TO sync_digest_dirty;
                """)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_digest_row") == 2)
            try rebuildSyncRowWithoutHashes(db)
            for (event, reference, condition) in [("insert", "NEW", ""), ("update", "NEW", " WHEN OLD.version IS NOT NEW.version"),
                                                   ("delete", "OLD", "")] {
                try db.execute(sql: """
                    CREATE TRIGGER sync_row_digest_\(event) AFTER \(event.uppercased()) ON sync_row\(condition) BEGIN
                        INSERT OR IGNORE INTO sync_digest_dirty (table_name, row_id) VALUES (\(reference).table_name, \(reference).row_id);
                    END
                    """)
            }
        }
        // A pull answered 304 compares nothing before the next pull
        // moves the hashes.
        #expect(try await store.checkDigest() == nil)
        var remaining = Array(rows.prefix(1))
        var counts = try await pull(remaining, digests: digests(of: remaining), counter: 3)
        #expect(counts.divergence == nil)
        let (oldTableExists, keptHashes) = try await notes.dbPool.read { db in
            (try db.tableExists("sync_digest_row"), try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_row WHERE hash IS NOT NULL"))
        }
        #expect(!oldTableExists)
        #expect(keptHashes == 1)
        // And the digests hold from then on.
        remaining = rows
        counts = try await pull(remaining, digests: digests(of: remaining), counter: 4)
        #expect(counts.inserted == 1)
        #expect(counts.divergence == nil)
        try await expectAClaimedDifferenceIsFound(remaining, inTable: 1, counter: 5)
    }

    /// Pulls `rows` with digests that differ from theirs in one table's
    /// checksum: a divergence, unless the device's digests no longer
    /// follow its rows.
    func expectAClaimedDifferenceIsFound(_ rows: [SyncServerRow], inTable table: Int, counter: Int64) async throws {
        var claimed = digests(of: rows)
        claimed[table].toggle(1)
        #expect(try await pull(rows, digests: claimed, counter: counter).divergence != nil)
    }

    @Test func aRowWrittenAgainByInsertOrReplaceKeepsItsCountedHash() async throws {
        let rows = try serverRows()
        try await pull(rows, digests: digests(of: rows))
        try await notes.dbPool.write { db in
            try db.mergingSyncChanges {
                // The note deleted as by a merge (its counted hash waits in
                // its mark), then written back with its version by
                // statements whose `OR REPLACE` the triggers they fire take.
                try db.execute(sql: "DELETE FROM note")
                try db.execute(sql: "INSERT OR REPLACE INTO note (id, notebook, title) VALUES (?, ?, 'Groceries')",
                               arguments: [groceries.uuidString, work.uuidString])
                try db.execute(sql: "INSERT OR REPLACE INTO sync_row (table_name, row_id, version) VALUES ('note', ?, 2)",
                               arguments: [groceries.uuidString])
            }
        }
        #expect(try await store.checkDigest() == nil)
        #expect(try await pull(rows, digests: digests(of: rows), counter: 3).divergence == nil)
    }

    /// `sync_row` as the engine made it before it kept the counted
    /// hashes: without its `hash` column, nor its digest triggers.
    func rebuildSyncRowWithoutHashes(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE sync_row_before (
                table_name TEXT NOT NULL,
                row_id NOT NULL,
                version INTEGER NOT NULL,
                PRIMARY KEY (table_name, row_id)) WITHOUT ROWID;
            INSERT INTO sync_row_before SELECT table_name, row_id, version FROM sync_row;
            DROP TABLE sync_row;
            ALTER TABLE sync_row_before RENAME TO sync_row;
            """)
    }

    @Test func aServerDeleteTakesTheRowOutOfTheDigest() async throws {
        let rows = try serverRows()
        try await pull(rows, digests: digests(of: rows))
        let remaining = Array(rows.prefix(1))
        let counts = try await pull(remaining, digests: digests(of: remaining), counter: 3)
        #expect(counts.deleted == 1)
        #expect(counts.divergence == nil)
    }
}
