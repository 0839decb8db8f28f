// The SQL of table definitions, as GRDB writes it: the `CREATE TABLE`
// statement, then the indexes of foreign keys and indexed columns.

extension TableDefinition {
    /// A column of the table: a definition, or SQL.
    private enum GeneratedColumn {
        case definition(ColumnDefinition)
        case literal(SQL)
    }

    /// The `CREATE TABLE` statement, then the `CREATE INDEX` statements:
    /// those of composite foreign keys, then those of indexed columns.
    func sql(_ db: Database) throws -> [String] {
        if let misuse {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: misuse)
        }
        if options.contains(.strict) {
            throw DatabaseError.unavailableInSQLCipher("STRICT tables", since: "3.37")
        }
        guard !columnComponents.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "table \(name) has no column: define at least one")
        }
        let indexOptions: IndexOptions = options.contains(.ifNotExists) ? .ifNotExists : []
        let forwardPrimaryKey = try self.forwardPrimaryKey(db)

        var columns: [GeneratedColumn] = []
        var foreignKeyConstraints: [ForeignKeyConstraint] = []
        var indexes: [IndexDefinition] = []
        for component in columnComponents {
            switch component {
            case .columnDefinition(let column):
                columns.append(.definition(column))
            case .columnLiteral(let sql):
                columns.append(.literal(sql))
            case .foreignKeyDefinition(let foreignKey):
                let generated = try foreignKey.generated(
                    db, originTable: name, forwardPrimaryKey: forwardPrimaryKey, indexOptions: indexOptions)
                columns += generated.columns.map { .definition($0) }
                if let index = generated.index { indexes.append(index) }
                if let constraint = generated.constraint { foreignKeyConstraints.append(constraint) }
            case .foreignKeyConstraint(let constraint):
                foreignKeyConstraints.append(constraint)
            }
        }
        for case .definition(let column) in columns {
            if column.generatedColumnConstraint != nil {
                throw DatabaseError.unavailableInSQLCipher("generated columns", since: "3.31")
            }
            if let index = column.index(in: name, options: indexOptions) { indexes.append(index) }
        }

        let context = SQLGenerationContext.inliningValues(db)
        let forwardPrimaryKeyColumns = { forwardPrimaryKey.columns?.map(\.name) }
        var items: [String] = try columns.map { column in
            switch column {
            case .definition(let column):
                try column.sql(db, tableName: name, primaryKeyColumns: forwardPrimaryKeyColumns)
            case .literal(let sql):
                try sql.sql(context)
            }
        }
        if let primaryKeyConstraint {
            items.append(try keySQL("PRIMARY KEY", primaryKeyConstraint, db, forwardPrimaryKey: forwardPrimaryKey))
        }
        for uniqueKeyConstraint in uniqueKeyConstraints {
            items.append(try keySQL("UNIQUE", uniqueKeyConstraint, db, forwardPrimaryKey: forwardPrimaryKey))
        }
        for constraint in foreignKeyConstraints {
            let destinationColumns = try constraint.destinationColumns ?? referencedPrimaryKey(
                db, table: constraint.destinationTable, from: name, primaryKeyColumns: forwardPrimaryKeyColumns)
            items.append("FOREIGN KEY (" + quoted(constraint.columns) + ") REFERENCES "
                + constraint.destinationTable.quotedDatabaseIdentifier + "(" + quoted(destinationColumns) + ")"
                + foreignKeyActions(onDelete: constraint.deleteAction, onUpdate: constraint.updateAction, deferred: constraint.isDeferred))
        }
        for check in checkConstraints {
            items.append("CHECK (" + (try check.sql(context)) + ")")
        }
        for literal in literalConstraints {
            items.append(try literal.sql(context))
        }

        var create = "CREATE "
        if options.contains(.temporary) { create += "TEMPORARY " }
        create += "TABLE "
        if options.contains(.ifNotExists) { create += "IF NOT EXISTS " }
        create += name.quotedDatabaseIdentifier + " (" + items.joined(separator: ", ") + ")"
        if options.contains(.withoutRowID) { create += " WITHOUT ROWID" }
        return try [create] + indexes.map { try $0.sql(db) }
    }

    /// `PRIMARY KEY ("a", "b") ON CONFLICT …` or `UNIQUE (…)`.
    private func keySQL(_ keyword: String, _ constraint: KeyConstraint, _ db: Database, forwardPrimaryKey: PrimaryKeyDescriptor) throws -> String {
        let columns = try constraint.components.flatMap { component -> [String] in
            switch component {
            case .columnName(let name):
                [name]
            case .columnDefinition(let column):
                [column.name]
            case .foreignKeyDefinition(let foreignKey):
                try foreignKey.generated(db, originTable: name, forwardPrimaryKey: forwardPrimaryKey, indexOptions: [])
                    .columns.map(\.name)
            }
        }
        return keyword + " (" + quoted(columns) + ")" + conflictClause(constraint.conflictResolution)
    }

    /// The primary key of the table being defined, for foreign keys that
    /// refer to it before it exists: nil columns for a hidden rowid. The
    /// columns of a composite key named by ``primaryKey(_:onConflict:)``
    /// have no type, as in GRDB.
    private func forwardPrimaryKey(_ db: Database) throws -> PrimaryKeyDescriptor {
        guard let primaryKeyConstraint else {
            for case .columnDefinition(let column) in columnComponents where column.primaryKey != nil {
                return PrimaryKeyDescriptor(table: name, columns: [(column.name, column.type)])
            }
            return PrimaryKeyDescriptor(table: name, columns: nil)
        }
        let columns = try primaryKeyConstraint.components.flatMap { component -> [(name: String, type: Database.ColumnType?)] in
            switch component {
            case .columnName(let name):
                [(name, nil)]
            case .columnDefinition(let column):
                [(column.name, column.type)]
            case .foreignKeyDefinition(let foreignKey):
                // The key is not known yet: a foreign key to this very
                // table cannot be part of it.
                try foreignKey.generated(db, originTable: name, forwardPrimaryKey: nil, indexOptions: [])
                    .columns.map { ($0.name, $0.type) }
            }
        }
        return PrimaryKeyDescriptor(table: name, columns: columns)
    }
}
