extension Database {
    // MARK: - Foreign keys

    /// The foreign keys of a table, in the order `PRAGMA foreign_key_list`
    /// gives them, from the named schema or from the first schema that has
    /// the table. Throws "no such table" if none has it.
    ///
    /// ```swift
    /// for foreignKey in try db.foreignKeys(on: "book") {
    ///     print(foreignKey.destinationTable, foreignKey.originColumns)
    /// }
    /// ```
    ///
    /// See <https://www.sqlite.org/pragma.html#pragma_foreign_key_list>.
    public func foreignKeys(on tableName: String, in schemaName: String? = nil) throws -> [ForeignKeyInfo] {
        try firstResult(tableName, in: schemaName, foreignKeys(on:))
    }

    private func foreignKeys(on table: DatabaseObjectID) throws -> [ForeignKeyInfo]? {
        // PRAGMA foreign_key_list says nothing of a missing table.
        guard try objectExists(.table, table) else { return nil }
        var keys: [(id: Int, destinationTable: String, mapping: [(seq: Int, origin: String, destination: String?)])] = []
        let rows = try Row.fetchAll(self, sql: """
            PRAGMA \(table.schemaID.name.quotedDatabaseIdentifier).foreign_key_list(\(table.name.quotedDatabaseIdentifier))
            """)
        for row in rows {
            let id: Int = row["id"]
            let pair = (seq: row["seq"] as Int, origin: row["from"] as String, destination: row["to"] as String?)
            if keys.last?.id == id {
                keys[keys.count - 1].mapping.append(pair)
            } else {
                keys.append((id, row["table"], [pair]))
            }
        }
        return try keys.map { key in
            let mapping = key.mapping.sorted { $0.seq < $1.seq }
            // A foreign key without destination columns references the
            // primary key of the destination table.
            let destinations = mapping.contains { $0.destination == nil }
                ? try primaryKey(key.destinationTable).columns
                : mapping.map { $0.destination! }
            return ForeignKeyInfo(
                id: key.id,
                destinationTable: key.destinationTable,
                mapping: zip(mapping, destinations).map { ($0.origin, $1) })
        }
    }

    // MARK: - Foreign key checks

    /// A cursor over the rows that reference missing rows, in all tables.
    ///
    /// See <https://www.sqlite.org/pragma.html#pragma_foreign_key_check>.
    public func foreignKeyViolations() throws -> RecordCursor<ForeignKeyViolation> {
        try ForeignKeyViolation.fetchCursor(self, sql: "PRAGMA foreign_key_check")
    }

    /// A cursor over the rows of a table that reference missing rows.
    /// Throws "no such table" if the table does not exist.
    public func foreignKeyViolations(in tableName: String, in schemaName: String? = nil) throws -> RecordCursor<ForeignKeyViolation> {
        let table = try firstResult(tableName, in: schemaName) { table in
            try objectExists(.table, table) ? table : nil
        }
        return try ForeignKeyViolation.fetchCursor(self, sql: """
            PRAGMA \(table.schemaID.name.quotedDatabaseIdentifier).foreign_key_check(\(table.name.quotedDatabaseIdentifier))
            """)
    }

    /// Throws a `SQLITE_CONSTRAINT_FOREIGNKEY` error that describes the
    /// first row that references a missing row, if any.
    ///
    /// ```swift
    /// try db.checkForeignKeys()
    /// // FOREIGN KEY constraint violation - from book(authorId) to author(id), in [id:1 authorId:42]
    /// ```
    public func checkForeignKeys() throws {
        try throwFirstViolation(of: foreignKeyViolations())
    }

    /// Throws a `SQLITE_CONSTRAINT_FOREIGNKEY` error that describes the
    /// first row of the table that references a missing row, if any.
    public func checkForeignKeys(in tableName: String, in schemaName: String? = nil) throws {
        try throwFirstViolation(of: foreignKeyViolations(in: tableName, in: schemaName))
    }

    private func throwFirstViolation(of violations: RecordCursor<ForeignKeyViolation>) throws {
        if let violation = try violations.next() {
            throw violation.databaseError(self)
        }
    }
}
