import CipherDB
import Foundation
import SyncSchema
import SyncServer

extension ServerSyncDatabase {
    /// An app's earlier store of its rows in the same file (Players' tables
    /// before the engine), which the engine's store takes in when it opens
    /// (``SyncServer/SyncAdoption``), in the transaction that migrates its
    /// own tables. The app knows its tables and reads them; the engine
    /// writes their rows as its own.
    ///
    /// ```swift
    /// let database = try ServerSyncDatabase(pool, schema: schema, adopting: PlayersServerAdoption.embedded)
    /// ```
    public struct Adoption: Sendable {
        /// The earlier store's history, taken in by a store of `schema`'s
        /// tables; nil when the file holds none (new, or taken in
        /// already). Throws, and nothing is changed, when it cannot be
        /// taken in.
        public var history: @Sendable (Database, _ schema: SyncSchema) throws -> SyncAdoptedHistory?
        /// Its chunk at a position (its first when nil).
        public var chunk: @Sendable (Database, SyncAdoptedChunk.Position?) throws -> SyncAdoptedChunk
        /// Drops its tables.
        public var drop: @Sendable (Database) throws -> Void

        public init(
            history: @escaping @Sendable (Database, _ schema: SyncSchema) throws -> SyncAdoptedHistory?,
            chunk: @escaping @Sendable (Database, SyncAdoptedChunk.Position?) throws -> SyncAdoptedChunk,
            drop: @escaping @Sendable (Database) throws -> Void
        ) {
            self.history = history
            self.chunk = chunk
            self.drop = drop
        }
    }

    /// In the migration's transaction: takes in the earlier store, if the
    /// file holds one, by the steps of ``SyncServer/SyncAdoption``; its
    /// digests are made anew when the database opens.
    static func adopt(_ earlier: Adoption, _ db: Database, schema: SyncSchema) throws {
        guard let adopted = try earlier.history(db, schema) else { return }
        var adoption = SyncAdoption(adopted, own: try counter(db))
        while let step = adoption.nextStep() {
            switch step {
            case .moveOwnVersions(let offset):
                // Through negative versions: each is unique at every step.
                try db.execute(sql: "UPDATE sync_server_row SET version = -version")
                try db.execute(sql: "UPDATE sync_server_row SET version = ? - version", arguments: [offset])
                try db.execute(sql: "UPDATE sync_server_answer SET version = version + ? WHERE version IS NOT NULL", arguments: [offset])
            case .setCounter(let counter):
                try db.execute(sql: "UPDATE sync_server_counter SET value = ?, floor = ?", arguments: [counter.value, counter.floor])
            case .setHistory(let server, let epochs, let isRestored):
                try db.execute(sql: "UPDATE sync_server_identity SET server = ?, is_backup_copy = ?",
                               arguments: [server.uuidString, isRestored])
                try db.execute(sql: "DELETE FROM sync_server_epoch")
                for (position, epoch) in epochs.enumerated() {
                    try db.execute(sql: "INSERT INTO sync_server_epoch (position, epoch, start) VALUES (?, ?, ?)",
                                   arguments: [position + 1, epoch.epoch, epoch.start])
                }
            case .forgetDigests:
                try db.execute(sql: "DELETE FROM sync_server_digest")
            case .takeChunk(let position):
                let chunk = try earlier.chunk(db, position)
                for row in chunk.rows { try save(db, row, schema: schema) }
                for answer in chunk.answers { try record(db, answer) }
                adoption.took(chunk)
            case .dropEarlierStore:
                try earlier.drop(db)
            }
        }
    }
}
