import CipherDB
import SyncSchema

extension Database {
    /// Installs the sync engine for the declared tables: its own tables
    /// (unless they exist) and, on each declared table, the triggers that
    /// record its changes in the outbox and the table its pulls are staged
    /// in (made again, so that a later declaration, which may add columns,
    /// replaces an earlier one's).
    /// Throws ``SyncEngineError`` for a declared table or column that the
    /// database does not have. Run it in a migration.
    public func installSyncEngine(for schema: SyncSchema) throws {
        guard isInsideTransaction else { throw SyncEngineError.notInTransaction("installing the sync engine") }
        for table in schema.tables {
            guard try tableExists(table.name) else { throw SyncEngineError.missingTable(table.name) }
            let columns = Dictionary(try self.columns(in: table.name).map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
            for column in table.columns {
                guard let stored = columns[column.name] else { throw SyncEngineError.missingColumn(table: table.name, column: column.name) }
                if !SyncColumnAffinity(declaredType: stored.type).holds(column.type) {
                    throw SyncEngineError.columnTypeMismatch(table: table.name, column: column.name, declared: column.type, sqlType: stored.type)
                }
                // A server's row may hold null where the declaration allows it.
                if stored.isNotNull && !column.isRequired && stored.primaryKeyIndex == 0 {
                    throw SyncEngineError.columnRequiresValue(table: table.name, column: column.name)
                }
            }
        }
        try SyncEngine.createTables(self)
        for table in schema.tables {
            for statement in SyncTriggers(table).statements {
                try execute(sql: statement)
            }
        }
        try prepareSyncStaging(schema: schema)
    }

    /// Runs `body` with the outbox's triggers silent: what it writes is
    /// the server's, not a local change. In the caller's transaction, so
    /// that no other connection ever writes while they are silent.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try db.mergingSyncChanges { try note.update(db) }   // not pushed back
    /// }
    /// ```
    @discardableResult
    public func mergingSyncChanges<T>(_ body: () throws -> T) throws -> T {
        guard isInsideTransaction else { throw SyncEngineError.notInTransaction("a merge of the server's changes") }
        // Inside another merge: its end, not this one's, records again.
        if try Bool.fetchOne(self, sql: "SELECT active FROM \(SyncEngine.mergeTable) WHERE id = 1") == true {
            return try body()
        }
        let silence = "UPDATE \(SyncEngine.mergeTable) SET active = 1"
        let record = "UPDATE \(SyncEngine.mergeTable) SET active = 0"
        try execute(sql: silence)
        let result: T
        do {
            result = try body()
        } catch {
            // The triggers record again even if the caller commits what
            // the body wrote; failing that, this failure is the one told.
            try execute(sql: record)
            throw error
        }
        try execute(sql: record)
        return result
    }

    /// Where the last merged pull left off: the endpoint, the server's
    /// cursor there and its `ETag`, all nil before the first.
    ///
    /// ```swift
    /// let cursor = try dbQueue.read { db in try db.syncPosition().cursor }
    /// ```
    public func syncPosition() throws -> SyncPosition {
        let row = try Row.fetchOne(self, sql: "SELECT endpoint, cursor, etag FROM \(SyncEngine.stateTable) WHERE id = 1")
        return SyncPosition(endpoint: row?["endpoint"], cursor: row?["cursor"], etag: row?["etag"])
    }
}
