// The SQL of column definitions, as GRDB writes it.

extension ColumnDefinition {
    /// The column in `CREATE TABLE` or `ALTER TABLE … ADD COLUMN`, in
    /// `tableName`. `primaryKeyColumns` gives the primary key of that table,
    /// for a column that references it (nil for a hidden rowid).
    ///
    /// `"score" INTEGER NOT NULL CHECK ("score" >= 0) DEFAULT 0 REFERENCES "team"("id")`
    func sql(_ db: Database, tableName: String, primaryKeyColumns: () throws -> [String]?) throws -> String {
        let context = SQLGenerationContext.inliningValues(db)
        var chunks = [name.quotedDatabaseIdentifier]
        if let type, !type.rawValue.isEmpty { chunks.append(type.rawValue) }
        if let primaryKey {
            chunks.append("PRIMARY KEY" + conflictClause(primaryKey.conflictResolution))
            if primaryKey.autoincrement { chunks.append("AUTOINCREMENT") }
        }
        if let notNullConflictResolution {
            chunks.append("NOT NULL" + conflictClause(notNullConflictResolution, omitting: .abort))
        }
        if case let .unique(conflictResolution) = indexing {
            chunks.append("UNIQUE" + conflictClause(conflictResolution, omitting: .abort))
        }
        for check in checkConstraints {
            chunks.append("CHECK (" + (try check.sql(context)) + ")")
        }
        if let defaultExpression {
            chunks.append("DEFAULT " + (try defaultExpression.sql(context)))
        }
        if let collationName {
            chunks.append("COLLATE " + collationName)
        }
        for constraint in foreignKeyConstraints {
            let destinationColumns: [String]
            if let column = constraint.destinationColumn {
                destinationColumns = [column]
            } else {
                destinationColumns = try referencedPrimaryKey(
                    db, table: constraint.destinationTable, from: tableName, primaryKeyColumns: primaryKeyColumns)
            }
            chunks.append("REFERENCES " + constraint.destinationTable.quotedDatabaseIdentifier + "(" + quoted(destinationColumns) + ")"
                + foreignKeyActions(onDelete: constraint.deleteAction, onUpdate: constraint.updateAction, deferred: constraint.isDeferred))
        }
        if let generated = generatedColumnConstraint {
            chunks.append("GENERATED ALWAYS AS (" + (try generated.expression.sql(context)) + ")")
            switch generated.qualification {
            case .virtual: chunks.append("VIRTUAL")
            case .stored: chunks.append("STORED")
            }
        }
        return chunks.joined(separator: " ")
    }

    /// The index that ``indexed()`` asks for, named `table_on_column`.
    func index(in table: String, options: IndexOptions) -> IndexDefinition? {
        guard case .index = indexing else { return nil }
        return IndexDefinition(name: table + "_on_" + name, table: table, expressions: [Column(name).sqlExpression], options: options)
    }
}

/// ` ON CONFLICT resolution`, or nothing for nil or the `omitted` default.
func conflictClause(_ conflictResolution: Database.ConflictResolution?, omitting omitted: Database.ConflictResolution? = nil) -> String {
    guard let conflictResolution, conflictResolution != omitted else { return "" }
    return " ON CONFLICT " + conflictResolution.rawValue
}

/// ` ON DELETE … ON UPDATE … DEFERRABLE INITIALLY DEFERRED`, the end of a
/// foreign key clause.
func foreignKeyActions(onDelete: Database.ForeignKeyAction?, onUpdate: Database.ForeignKeyAction?, deferred: Bool) -> String {
    var clause = ""
    if let onDelete { clause += " ON DELETE " + onDelete.rawValue }
    if let onUpdate { clause += " ON UPDATE " + onUpdate.rawValue }
    if deferred { clause += " DEFERRABLE INITIALLY DEFERRED" }
    return clause
}

/// The primary key columns of `table`, referenced by a foreign key of
/// `originTable` that names no column: those of `primaryKeyColumns` when the
/// table references itself (it may not exist yet), `rowid` for a hidden
/// rowid.
func referencedPrimaryKey(
    _ db: Database, table: String, from originTable: String, primaryKeyColumns: () throws -> [String]?) throws -> [String]
{
    if table.lowercased() == originTable.lowercased() {
        return try primaryKeyColumns() ?? [Column.rowID.name]
    }
    return try db.primaryKey(table).columns
}

func quoted(_ columns: [String]) -> String {
    columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
}
