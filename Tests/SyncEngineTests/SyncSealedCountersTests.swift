import CipherDB
import Foundation
import SyncEngine
import TestSupport
import Testing

/// The sealed counters a device keeps of the rows of its end-to-end
/// tables: beside each synced row's version, and once its entry is gone
/// (a deleted row), in `sync_sealed_row`, so that an older value is
/// refused either way.
@Suite struct SyncSealedCountersTests {
    let notes: NotesDatabase
    let id = UUID()
    let change = UUID()

    init() throws {
        notes = try NotesDatabase()
    }

    func counters() throws -> [UUID: SyncSealedCounter] {
        try notes.dbPool.read { db in try db.syncSealedCounters(table: "note", ids: [id]) }
    }

    @Test func aRowsCounterIsKeptBesideItsVersionAndOnlyRises() throws {
        try notes.setServerVersion(4, of: "note", id)
        try notes.dbPool.write { db in
            try db.recordSyncSealedCounter(SyncSealedCounter(counter: 7, change: change), table: "note", id: id)
            try db.recordSyncSealedCounter(SyncSealedCounter(counter: 5, change: UUID()), table: "note", id: id)
            #expect(try Int64.fetchOne(db, sql: "SELECT sealed_counter FROM sync_row WHERE row_id = ?", arguments: [id.uuidString]) == 7)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_sealed_row") == 0)
        }
        #expect(try counters() == [id: SyncSealedCounter(counter: 7, change: change)])
    }

    @Test func aDeletedRowKeepsItsCounter() throws {
        try notes.setServerVersion(4, of: "note", id)
        try notes.dbPool.write { db in
            try db.recordSyncSealedCounter(SyncSealedCounter(counter: 7, change: change), table: "note", id: id)
            try db.execute(sql: "DELETE FROM sync_row WHERE row_id = ?", arguments: [id.uuidString])
        }
        #expect(try counters() == [id: SyncSealedCounter(counter: 7, change: change)])
        // Back with a later value: its counter is the row's again.
        try notes.setServerVersion(9, of: "note", id)
        try notes.dbPool.write { db in
            try db.recordSyncSealedCounter(SyncSealedCounter(counter: 8, change: change), table: "note", id: id)
        }
        #expect(try counters() == [id: SyncSealedCounter(counter: 8, change: change)])
    }

    @Test func aRowNeverSyncedKeepsItsCounterAsADeletedOne() throws {
        try notes.dbPool.write { db in
            try db.recordSyncSealedCounter(SyncSealedCounter(counter: 3, change: change), table: "note", id: id)
        }
        #expect(try counters() == [id: SyncSealedCounter(counter: 3, change: change)])
    }

    @Test func forgettingTheCountersForgetsThoseOfDeletedRowsToo() throws {
        let deleted = UUID()
        try notes.setServerVersion(4, of: "note", id)
        try notes.dbPool.write { db in
            try db.recordSyncSealedCounter(SyncSealedCounter(counter: 7, change: change), table: "note", id: id)
            try db.recordSyncSealedCounter(SyncSealedCounter(counter: 2, change: change), table: "note", id: deleted)
            try db.forgetSyncSealedCounters()
            #expect(try db.syncSealedCounters(table: "note", ids: [id, deleted]).isEmpty)
        }
    }

    /// The first release of end-to-end tables kept every counter in
    /// `sync_sealed_row`: they are read as they are, then move beside
    /// their rows' versions, but those of rows without one.
    @Test func theCountersOfTheFirstReleaseMoveBesideTheirRows() throws {
        let deleted = UUID()
        try notes.setServerVersion(4, of: "note", id)
        try notes.dbPool.write { db in
            try db.execute(sql: """
                CREATE TABLE sync_sealed_row (
                    table_name TEXT NOT NULL, row_id TEXT NOT NULL, counter INTEGER NOT NULL, change BLOB NOT NULL,
                    PRIMARY KEY (table_name, row_id)) WITHOUT ROWID;
                INSERT INTO sync_sealed_row VALUES ('note', ?, 7, ?), ('note', ?, 2, ?);
                """, arguments: [id.uuidString, change, deleted.uuidString, change])
        }
        let before = try notes.dbPool.read { db in try db.syncSealedCounters(table: "note", ids: [id, deleted]) }
        #expect(before == [id: SyncSealedCounter(counter: 7, change: change), deleted: SyncSealedCounter(counter: 2, change: change)])
        try notes.dbPool.write { db in
            try db.recordSyncSealedCounter(SyncSealedCounter(counter: 1, change: UUID()), table: "note", id: UUID())
            #expect(try Int64.fetchOne(db, sql: "SELECT sealed_counter FROM sync_row WHERE row_id = ?", arguments: [id.uuidString]) == 7)
            #expect(try String.fetchAll(db, sql: "SELECT row_id FROM sync_sealed_row WHERE counter = 2") == [deleted.uuidString])
        }
        #expect(try notes.dbPool.read { db in try db.syncSealedCounters(table: "note", ids: [id, deleted]) } == before)
    }
}
