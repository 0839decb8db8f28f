import CipherDB
import Foundation
import Notes
import SyncEngine
import SyncRowSealing
import SyncSchema
import SyncSealing

/// Notes' rows as the benchmarks sync them: sealed, as Notes' end-to-end
/// notebooks and notes travel, under a key per notebook that the device
/// holds; or the same tables in the clear, to compare with.
enum BenchNotes {
    /// The user whose device syncs, and who owns every notebook.
    static let user = "bench"

    /// Notes' declaration with nothing end-to-end: the same tables, as a
    /// server reads them.
    static let inTheClear = try! SyncSchema(tables: NotesSchema.declaration.tables.map { table in
        SyncTable(name: table.name, primaryKey: table.primaryKey, conflicts: table.conflicts, columns: table.columns, access: table.access)
    })

    /// The key of notebook `index`'s partition, the same on every run.
    static func key(ofNotebook id: UUID) throws -> PartitionKey {
        let seed = Array(id.uuidString.utf8)
        return try PartitionKey(partition: SyncPartition.group(table: "notebook", id: id), epoch: 1,
                                bytes: (0..<PartitionKey.length).map { seed[$0 % seed.count] &+ UInt8($0) })
    }

    /// `row` of notebook `notebook` sealed into the server view, as its
    /// writer's device sealed it at `version`.
    static func sealed(_ row: SyncRow, notebook: UUID, version: Int64) throws -> SyncRow {
        try SyncRowSealer(schema: NotesSchema.declaration, user: user)
            .seal(row, key: key(ofNotebook: notebook), sealedCounter: version, change: writer)
    }

    /// The writing device's change of every sealed row.
    static let writer = UUID(uuidString: "00000000-0000-4000-8000-0000000000B1")!

    /// Gives a new Notes database the identity of ``user`` and the keys of
    /// `notebooks`, as a device of theirs that synced keys before rows.
    static func prepareKeys(_ writer: any DatabaseWriter, notebooks: [UUID]) throws {
        let identity = try IdentityKeyPair(secretKey: (0..<32).map { UInt8($0) &+ 1 })
        try writer.write { db in
            try db.saveSyncIdentity(SyncStoredIdentity(publicKey: identity.publicKey.bytes, secretKey: identity.secretKey))
            try db.markSyncIdentityPublished(user: user)
            try db.saveSyncPartitionKeys(try notebooks.map { id in
                SyncStoredPartitionKey(partition: SyncPartition.group(table: "notebook", id: id), epoch: 1,
                                       bytes: try key(ofNotebook: id).bytes, sender: user)
            })
        }
    }
}
