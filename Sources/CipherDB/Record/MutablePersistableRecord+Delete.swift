// Deleting records, with their callbacks (`willDelete`, `aroundDelete` {
// DELETE }, `didDelete`), and checking their existence.

extension MutablePersistableRecord {
    /// Deletes the row of the record; returns whether there was one.
    ///
    /// ```swift
    /// try player.delete(db) // DELETE FROM "player" WHERE "id"=?
    /// ```
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
        guard let (statement, key) = try keyedStatement(db, kind: .delete) else { return false }
        let changesCount = try db.countingChanges(in: type(of: self).databaseTableName) {
            try statement.execute(values: key.values)
        }
        return changesCount > 0
    }

    /// Whether the row of the record exists.
    ///
    /// ```swift
    /// if try player.exists(db) { … } // SELECT EXISTS (SELECT 1 FROM "player" WHERE "id"=?)
    /// ```
    public func exists(_ db: Database) throws -> Bool {
        guard let (statement, key) = try keyedStatement(db, kind: .exists) else { return false }
        return try Bool.fetchOne(statement, arguments: StatementArguments(values: key.values)) ?? false
    }

    /// The statement that targets the row of the record, and the values of
    /// its primary key; nil if the record has no primary key.
    private func keyedStatement(_ db: Database, kind: KeyedStatementKind) throws -> (Statement, PrimaryKeyValues)? {
        let table = type(of: self).databaseTableName
        let key = try PrimaryKeyValues(columns: db.cachedPrimaryKey(table).columns, container: PersistenceContainer(self))
        if key.isNull { return nil }
        return try (db.keyedStatement(kind, table: table, keyColumns: key.columns), key)
    }
}
