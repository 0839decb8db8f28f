import CipherDB
import Foundation
import SyncSchema
import SyncServer

extension ServerSyncDatabase {
    /// An app's earlier store of its rows in the same file (Players' tables
    /// before the engine), which the engine's store takes in when it opens:
    /// its history, rows and answers, in the transaction that then drops
    /// it. The app knows its tables; the engine writes them as its own.
    ///
    /// ```swift
    /// let database = try ServerSyncDatabase(pool, schema: schema, adopting: PlayersServerAdoption.embedded)
    /// ```
    public struct Adoption: Sendable {
        /// The earlier store's history; nil when the file holds none (new,
        /// or taken in already).
        public var history: @Sendable (Database) throws -> SyncAdoptedHistory?
        /// Hands its rows, live ones and tombstones with their versions, to
        /// `take`, a chunk at a time.
        public var rows: @Sendable (Database, _ take: ([SyncStoredRow]) throws -> Void) throws -> Void
        /// Hands the answers it kept to `take`, a chunk at a time.
        public var answers: @Sendable (Database, _ take: ([SyncRecordedAnswer]) throws -> Void) throws -> Void
        /// Drops its tables.
        public var drop: @Sendable (Database) throws -> Void

        public init(
            history: @escaping @Sendable (Database) throws -> SyncAdoptedHistory?,
            rows: @escaping @Sendable (Database, _ take: ([SyncStoredRow]) throws -> Void) throws -> Void,
            answers: @escaping @Sendable (Database, _ take: ([SyncRecordedAnswer]) throws -> Void) throws -> Void,
            drop: @escaping @Sendable (Database) throws -> Void
        ) {
            self.history = history
            self.rows = rows
            self.answers = answers
            self.drop = drop
        }
    }

    /// In one immediate transaction: takes in the earlier store, if the
    /// file holds one. The engine's own rows, if any, move after its
    /// counter (the clients of the engine's own history then take a
    /// snapshot, as after a restore); the adopted history becomes the
    /// store's, and its digests are made anew when it opens.
    static func adopt(_ adoption: Adoption, in writer: any DatabaseWriter, schema: SyncSchema) throws {
        try writer.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                guard let history = try adoption.history(db) else { return .commit }
                let own = try counter(db)
                let offset = history.counter
                if own.value > 0 {
                    // Through negative versions: each is unique at every step.
                    try db.execute(sql: "UPDATE sync_server_row SET version = -version")
                    try db.execute(sql: "UPDATE sync_server_row SET version = ? - version", arguments: [offset])
                    try db.execute(sql: "UPDATE sync_server_answer SET version = version + ? WHERE version IS NOT NULL", arguments: [offset])
                }
                try db.execute(sql: "UPDATE sync_server_counter SET value = ?, floor = ?", arguments: [
                    own.value + offset, max(history.floor, own.floor > 0 ? own.floor + offset : 0)])
                try db.execute(sql: "UPDATE sync_server_identity SET server = ?, is_backup_copy = ?",
                               arguments: [history.server.uuidString, history.isRestored])
                try db.execute(sql: "DELETE FROM sync_server_epoch")
                for (position, epoch) in history.epochs.enumerated() {
                    try db.execute(sql: "INSERT INTO sync_server_epoch (position, epoch, start) VALUES (?, ?, ?)",
                                   arguments: [position + 1, epoch.epoch, epoch.start])
                }
                try db.execute(sql: "DELETE FROM sync_server_digest")
                try adoption.rows(db) { rows in
                    for row in rows { try save(db, row, schema: schema) }
                }
                try adoption.answers(db) { answers in
                    for answer in answers { try record(db, answer) }
                }
                try adoption.drop(db)
                return .commit
            }
        }
    }
}
