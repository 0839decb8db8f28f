// Saving records: an update if the record has a primary key and its row
// exists, or else an insert.

extension MutablePersistableRecord {
    /// Updates the record if its row exists, or else inserts it.
    ///
    /// ```swift
    /// try player.save(db) // UPDATE, or INSERT if the row is missing
    /// ```
    public mutating func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try performSave(db, onConflict: conflictResolution)
    }

    /// The save of both record protocols (``PersistableRecord`` saves a
    /// copy).
    mutating func performSave(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?) throws {
        try saveWithCallbacks(db) { record in
            try record.updateOrInsertWithCallbacks(db, onConflict: conflictResolution)
        }
    }

    /// Saves a copy of the record, and returns it.
    public func saved(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self {
        var record = self
        try record.save(db, onConflict: conflictResolution)
        return record
    }

    private mutating func updateOrInsertWithCallbacks(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?) throws -> PersistenceSuccess {
        let table = type(of: self).databaseTableName
        let key = try PrimaryKeyValues(columns: db.cachedPrimaryKey(table).columns, container: PersistenceContainer(self))
        if !key.isNull {
            do {
                let columns = try db.cachedColumnNames(table)
                return try updateWithCallbacks(db, onConflict: conflictResolution, columns: Set(columns))
            } catch let RecordError.recordNotFound(databaseTableName: missingTable, key: missingKey)
                        where missingTable == table && missingKey == key.dictionary {
                // Not in the database yet: insert below.
            }
        }
        return PersistenceSuccess(try insertWithCallbacks(db, onConflict: conflictResolution))
    }

    /// Inserts the record, or updates it if a row has its primary key, in
    /// one savepoint.
    ///
    /// SQLite 3.15.2 has no `INSERT … ON CONFLICT DO UPDATE`: unlike GRDB's
    /// `upsert`, this only handles conflicts on the primary key; a conflict
    /// on another unique index fails.
    ///
    /// ```swift
    /// try player.upsert(db)
    /// ```
    public mutating func upsert(_ db: Database) throws {
        try performUpsert(db)
    }

    /// The upsert of both record protocols.
    mutating func performUpsert(_ db: Database) throws {
        var record = self
        try db.inSavepoint {
            try record.performSave(db, onConflict: nil)
            return .commit
        }
        self = record
    }
}
