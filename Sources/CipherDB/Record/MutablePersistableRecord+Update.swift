// Updating records, with their callbacks: `willSave`, `aroundSave` {
// `willUpdate`, `aroundUpdate` { UPDATE }, `didUpdate` }, `didSave`.

extension MutablePersistableRecord {
    /// Updates all columns of the record, or throws
    /// ``RecordError/recordNotFound(databaseTableName:key:)`` if no row
    /// has its primary key.
    ///
    /// ```swift
    /// player.score = 1000
    /// try player.update(db) // UPDATE "player" SET "name"=?, "score"=? WHERE "id"=?
    /// ```
    public func update(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        let columns = try db.cachedColumnNames(type(of: self).databaseTableName)
        try performUpdate(db, onConflict: conflictResolution, columns: Set(columns))
    }

    /// Updates some columns of the record, or throws
    /// ``RecordError/recordNotFound(databaseTableName:key:)``.
    ///
    /// ```swift
    /// try player.update(db, columns: ["score"])
    /// ```
    public func update(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
                       columns: some Collection<String>) throws {
        try performUpdate(db, onConflict: conflictResolution, columns: Set(columns))
    }

    /// Updates some columns of the record, or throws
    /// ``RecordError/recordNotFound(databaseTableName:key:)``.
    ///
    /// ```swift
    /// try player.update(db, columns: [Column("score")])
    /// ```
    public func update(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
                       columns: some Collection<some ColumnExpression>) throws {
        try performUpdate(db, onConflict: conflictResolution, columns: Set(columns.map(\.name)))
    }

    /// Writes only the columns that differ from `record`; returns whether
    /// anything was written.
    ///
    /// ```swift
    /// let old = player
    /// player.score = 1000
    /// try player.updateChanges(db, from: old) // UPDATE "player" SET "score"=? WHERE "id"=?
    /// ```
    @discardableResult
    public func updateChanges(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
                              from record: some EncodableRecord) throws -> Bool {
        try updateChanges(db, onConflict: conflictResolution, from: PersistenceContainer(record))
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
        let old = try PersistenceContainer(self)
        try modify(&self)
        return try updateChanges(db, onConflict: conflictResolution, from: old)
    }

    private func updateChanges(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
                               from old: PersistenceContainer) throws -> Bool {
        let changes = try PersistenceContainer(self).changes(from: old)
        guard !changes.isEmpty else { return false }
        try performUpdate(db, onConflict: conflictResolution, columns: Set(changes.keys))
        return true
    }

    private func performUpdate(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?, columns: Set<String>) throws {
        // The save callbacks run on a copy: an update does not change the
        // record.
        var record = self
        try record.saveWithCallbacks(db) { record in
            try record.updateWithCallbacks(db, onConflict: conflictResolution, columns: columns)
        }
    }

    /// `willUpdate`, `aroundUpdate` { UPDATE }, `didUpdate`.
    func updateWithCallbacks(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
                             columns: Set<String>) throws -> PersistenceSuccess {
        try willUpdate(db, columns: columns)
        var updated: PersistenceSuccess?
        try aroundUpdate(db, columns: columns) {
            updated = try updateWithoutCallbacks(db, onConflict: conflictResolution, columns: columns)
            return updated!
        }
        guard let updated else { throw persistenceCallbackMisuse("aroundUpdate") }
        didUpdate(updated)
        return updated
    }

    private func updateWithoutCallbacks(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
                                        columns: Set<String>) throws -> PersistenceSuccess {
        let table = type(of: self).databaseTableName
        let primaryKey = try db.cachedPrimaryKey(table)
        let tableColumns = try db.cachedColumnNames(table)
        let container = try PersistenceContainer(self)
        let key = PrimaryKeyValues(columns: primaryKey.columns, container: container)
        guard !key.isNull else {
            throw RecordError.recordNotFound(databaseTableName: table, key: key.dictionary)
        }
        // The updated columns in table order, as GRDB: asked for, encoded
        // by the record, and not in the primary key. Few columns: comparing
        // names beats hashing lowercased copies.
        var setColumns: [String] = []
        var setValues: [DatabaseValue] = []
        for column in tableColumns
        where columns.contains(where: column.isEqualIgnoringCase) && !key.columns.contains(where: column.isEqualIgnoringCase) {
            if let value = container.databaseValue(forColumn: column) {
                setColumns.append(column)
                setValues.append(value)
            }
        }
        if setColumns.isEmpty {
            // Nothing to change: still write a row, so that the update
            // fails if the row is missing, and observers see a change.
            setColumns = key.columns
            setValues = key.values
        }
        let conflict = conflictResolution ?? type(of: self).persistenceConflictPolicy.conflictResolutionForUpdate
        let statement = try db.updateStatement(table: table, setColumns: setColumns, keyColumns: key.columns, onConflict: conflict)
        let changesCount = try db.countingChanges(in: table) {
            try statement.execute(values: setValues + key.values)
        }
        if changesCount == 0 {
            throw RecordError.recordNotFound(databaseTableName: table, key: key.dictionary)
        }
        return PersistenceSuccess(persistenceContainer: container)
    }
}

/// The primary key columns of a record, and its values for them (NULL for
/// a column the record does not encode).
struct PrimaryKeyValues {
    var columns: [String]
    var values: [DatabaseValue]

    init(columns: [String], container: PersistenceContainer) {
        self.columns = columns
        values = columns.map { container.databaseValue(forColumn: $0) ?? .null }
    }

    /// Whether the record has no primary key: no row can match it.
    var isNull: Bool { values.allSatisfy(\.isNull) }

    /// For errors only: saving a record does not need it.
    var dictionary: [String: DatabaseValue] {
        Dictionary(zip(columns, values), uniquingKeysWith: { first, _ in first })
    }
}
