// Insert, update, save, delete and exists, with their callbacks.

// MARK: - Insert

extension MutablePersistableRecord {
    /// Inserts the record, and calls ``didInsert(_:)`` with the new rowid.
    ///
    /// ```swift
    /// var player = Player(id: nil, name: "Arthur", score: 100)
    /// try player.insert(db)
    /// ```
    public mutating func insert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try performInsert(db, onConflict: conflictResolution)
    }

    mutating func performInsert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?) throws {
        try saveWithCallbacks(db) { record in
            PersistenceSuccess(try record.insertWithCallbacks(db, onConflict: conflictResolution))
        }
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

    /// Inserts a copy of the record, and returns it with its new id.
    public func inserted(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self {
        var record = self
        try record.insert(db, onConflict: conflictResolution)
        return record
    }

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

    func insertWithoutCallbacks(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?) throws -> InsertionSuccess {
        var container = try persistenceContainer()
        let table = Self.databaseTableName
        let conflict = conflictResolution ?? Self.persistenceConflictPolicy.conflictResolutionForInsert
        let statement = try db.insertStatement(table: table, columns: container.columns, onConflict: conflict)
        try statement.execute(values: container.values)
        let rowID = db.lastInsertedRowID
        let rowIDColumn = try db.cachedPrimaryKey(table).visibleRowIDColumn
        if let rowIDColumn {
            container.setValue(rowID.databaseValue, forColumn: rowIDColumn)
        }
        return InsertionSuccess(rowID: rowID, rowIDColumn: rowIDColumn, persistenceContainer: container)
    }
}

// MARK: - Update

extension MutablePersistableRecord {
    /// Updates the columns of the record, or throws
    /// ``PersistenceError/recordNotFound(databaseTableName:key:)`` if no row
    /// has its primary key.
    public func update(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try performUpdate(db, onConflict: conflictResolution, columns: nil)
    }

    /// Updates some columns of the record.
    public func update(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
                       columns: some Collection<String>) throws {
        try performUpdate(db, onConflict: conflictResolution, columns: Set(columns))
    }

    /// Updates some columns of the record.
    public func update(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
                       columns: some Collection<some ColumnExpression>) throws {
        try performUpdate(db, onConflict: conflictResolution, columns: Set(columns.map(\.name)))
    }

    private func performUpdate(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?, columns: Set<String>?) throws {
        // `willSave` is mutating: an update changes a copy, as GRDB does.
        var record = self
        try record.saveWithCallbacks(db) { record in
            try record.updateWithCallbacks(db, onConflict: conflictResolution, columns: columns)
        }
    }

    func updateWithCallbacks(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
                             columns: Set<String>?) throws -> PersistenceSuccess {
        let container = try persistenceContainer()
        let updatedColumns = columns ?? Set(container.columns)
        try willUpdate(db, columns: updatedColumns)
        var updated: PersistenceSuccess?
        try aroundUpdate(db, columns: updatedColumns) {
            updated = try updateWithoutCallbacks(db, container: container, onConflict: conflictResolution, columns: updatedColumns)
            return updated!
        }
        guard let updated else { throw persistenceCallbackMisuse("aroundUpdate") }
        didUpdate(updated)
        return updated
    }

    private func updateWithoutCallbacks(_ db: Database, container: PersistenceContainer,
                                        onConflict conflictResolution: Database.ConflictResolution?,
                                        columns: Set<String>) throws -> PersistenceSuccess {
        let table = Self.databaseTableName
        let key = try primaryKeyValues(db, container: container)
        guard !key.values.contains(where: \.isNull) else {
            throw PersistenceError.recordNotFound(databaseTableName: table, key: key.dictionary)
        }
        var setColumns: [String] = []
        var setValues: [DatabaseValue] = []
        // Few columns: comparing names beats hashing lowercased copies.
        for (column, value) in zip(container.columns, container.values)
        where columns.contains(where: column.isEqualIgnoringCase) && !key.columns.contains(where: column.isEqualIgnoringCase) {
            setColumns.append(column)
            setValues.append(value)
        }
        if setColumns.isEmpty {
            // Nothing to change: still check that the row exists.
            setColumns = key.columns
            setValues = key.values
        }
        let conflict = conflictResolution ?? Self.persistenceConflictPolicy.conflictResolutionForUpdate
        let statement = try db.updateStatement(table: table, setColumns: setColumns, keyColumns: key.columns, onConflict: conflict)
        try statement.execute(values: setValues + key.values)
        if db.changesCount == 0 {
            throw PersistenceError.recordNotFound(databaseTableName: table, key: key.dictionary)
        }
        return PersistenceSuccess(persistenceContainer: container)
    }

    /// The primary key columns and their values in the container.
    func primaryKeyValues(_ db: Database, container: PersistenceContainer) throws -> PrimaryKeyValues {
        let columns = try db.cachedPrimaryKey(Self.databaseTableName).columns
        var values: [DatabaseValue] = []
        for column in columns {
            guard let value = container.databaseValue(forColumn: column) else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "\(Self.self) does not encode the primary key column \(column) of table \(Self.databaseTableName)")
            }
            values.append(value)
        }
        return PrimaryKeyValues(columns: columns, values: values)
    }

    /// Writes only the columns that differ from `record`; returns whether
    /// anything was written.
    ///
    /// ```swift
    /// let old = player
    /// player.score = 1000
    /// try player.updateChanges(db, from: old) // UPDATE player SET score = ? WHERE id = ?
    /// ```
    @discardableResult
    public func updateChanges(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
                              from record: some EncodableRecord) throws -> Bool {
        let changes = try databaseChanges(from: record)
        guard !changes.isEmpty else { return false }
        try performUpdate(db, onConflict: conflictResolution, columns: Set(changes.keys))
        return true
    }

    /// Modifies the record, then writes only the columns that changed;
    /// returns whether anything was written.
    ///
    /// ```swift
    /// try player.updateChanges(db) { $0.score = 1000 }
    /// ```
    @discardableResult
    public mutating func updateChanges(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
                                       modify: (inout Self) throws -> Void) throws -> Bool {
        let old = self
        try modify(&self)
        return try updateChanges(db, onConflict: conflictResolution, from: old)
    }
}

// MARK: - Save

extension MutablePersistableRecord {
    /// Updates the record if its row exists, or else inserts it.
    ///
    /// ```swift
    /// try player.save(db) // INSERT or UPDATE
    /// ```
    public mutating func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try performSave(db, onConflict: conflictResolution)
    }

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
        let container = try persistenceContainer()
        let key = try primaryKeyValues(db, container: container)
        if !key.values.contains(where: \.isNull) {
            do {
                return try updateWithCallbacks(db, onConflict: conflictResolution, columns: nil)
            } catch PersistenceError.recordNotFound {
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
    public mutating func upsert(_ db: Database) throws {
        try performUpsert(db)
    }

    mutating func performUpsert(_ db: Database) throws {
        var record = self
        try db.inSavepoint {
            try record.performSave(db, onConflict: nil)
            return .commit
        }
        self = record
    }
}

// MARK: - Delete and exists

extension MutablePersistableRecord {
    /// Deletes the row of the record; returns whether there was one.
    @discardableResult
    public func delete(_ db: Database) throws -> Bool {
        try willDelete(db)
        var deleted: Bool?
        try aroundDelete(db) {
            deleted = try deleteWithoutCallbacks(db)
            return deleted!
        }
        guard let deleted else { throw persistenceCallbackMisuse("aroundDelete") }
        didDelete(deleted: deleted)
        return deleted
    }

    private func deleteWithoutCallbacks(_ db: Database) throws -> Bool {
        let key = try primaryKeyValues(db, container: persistenceContainer())
        if key.values.contains(where: \.isNull) { return false }
        return try Self.filter(key: key.dictionary).deleteAll(db) > 0
    }

    /// Whether the row of the record exists.
    public func exists(_ db: Database) throws -> Bool {
        let key = try primaryKeyValues(db, container: persistenceContainer())
        if key.values.contains(where: \.isNull) { return false }
        return try !Self.filter(key: key.dictionary).isEmpty(db)
    }
}

/// The primary key columns of a record, and its values for them.
struct PrimaryKeyValues {
    var columns: [String]
    var values: [DatabaseValue]

    /// For requests and errors only: saving a record does not need it.
    var dictionary: [String: DatabaseValue] {
        Dictionary(uniqueKeysWithValues: zip(columns, values))
    }
}
