// Inserting records, with their callbacks: `willSave`, `aroundSave` {
// `willInsert`, `aroundInsert` { INSERT }, `didInsert` }, `didSave`.

extension MutablePersistableRecord {
    /// Inserts the record, and calls ``didInsert(_:)`` with the new rowid.
    ///
    /// ```swift
    /// var player = Player(id: nil, name: "Arthur", score: 100)
    /// try player.insert(db) // INSERT INTO "player" ("id", "name", "score") VALUES (?,?,?)
    /// ```
    ///
    /// The conflict resolution is `conflictResolution`, or else the one of
    /// ``persistenceConflictPolicy-3ceaj``.
    /// See <https://www.sqlite.org/lang_conflict.html>.
    public mutating func insert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try performInsert(db, onConflict: conflictResolution)
    }

    /// The insert of both record protocols (``PersistableRecord`` inserts
    /// a copy).
    mutating func performInsert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?) throws {
        try saveWithCallbacks(db) { record in
            PersistenceSuccess(try record.insertWithCallbacks(db, onConflict: conflictResolution))
        }
    }

    /// Inserts a copy of the record, and returns it with its new id.
    ///
    /// ```swift
    /// let player = try Player(id: nil, name: "Arthur", score: 100).inserted(db)
    /// ```
    public func inserted(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self {
        var record = self
        try record.insert(db, onConflict: conflictResolution)
        return record
    }

    /// `willSave`, `aroundSave` { `save` }, `didSave`.
    mutating func saveWithCallbacks(_ db: Database, _ save: (inout Self) throws -> PersistenceSuccess) throws {
        try willSave(db)
        var saved: PersistenceSuccess?
        try aroundSave(db) {
            saved = try save(&self)
            return saved!
        }
        guard let saved else { throw persistenceCallbackMisuse("aroundSave") }
        didSave(saved)
    }

    /// `willInsert`, `aroundInsert` { INSERT }, `didInsert`.
    mutating func insertWithCallbacks(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?) throws -> InsertionSuccess {
        try willInsert(db)
        var inserted: InsertionSuccess?
        try aroundInsert(db) {
            inserted = try insertWithoutCallbacks(db, onConflict: conflictResolution)
            return inserted!
        }
        guard let inserted else { throw persistenceCallbackMisuse("aroundInsert") }
        didInsert(inserted)
        return inserted
    }

    private func insertWithoutCallbacks(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?) throws -> InsertionSuccess {
        // `type(of:)`: a subclass of `Record` names its own table.
        let table = type(of: self).databaseTableName
        // The schema is read before the INSERT runs, so that the INSERT is
        // the last statement, as in GRDB.
        let rowIDColumn = try db.cachedPrimaryKey(table).rowIDColumn
        var container = try PersistenceContainer(self)
        let conflict = conflictResolution ?? type(of: self).persistenceConflictPolicy.conflictResolutionForInsert
        let statement = try db.insertStatement(table: table, columns: container.columns, onConflict: conflict)
        try statement.execute(values: container.values)
        let rowID = db.lastInsertedRowID
        // The container of the inserted row: `Record` compares it with its
        // later values to find its changes.
        if let rowIDColumn {
            container.setValue(rowID.databaseValue, forColumn: rowIDColumn)
        }
        return InsertionSuccess(rowID: rowID, rowIDColumn: rowIDColumn, persistenceContainer: container)
    }
}
