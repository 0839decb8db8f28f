// The rows of a query that includes associations hold the columns of
// every included table side by side. An adapter splits them: the row shows
// the columns of the request's table, and its scopes, named by association
// keys, show the columns of the included tables.
//
// ```swift
// // SELECT book.*, author.* FROM book JOIN author ON author.id = book.authorId
// for row in try Row.fetchAll(db, Book.including(required: Book.author)) {
//     row                    // [id:1, title:"Moby-Dick", authorId:12]
//     row.scopes["author"]   // [id:12, name:"Herman Melville"]
// }
// ```

extension SQLQuery {
    /// The adapter of the rows of the query, or nil if it includes no table.
    func rowAdapter(_ context: SQLGenerationContext) throws -> (any RowAdapter)? {
        if statementJoins.isEmpty { return nil }
        let tables = SelectedTables(db: context.db, commonTableExpressions: commonTableExpressions)
        return try rowAdapter(tables, from: 0, isRoot: true, isSelected: true)?.adapter
    }

    /// The adapter of the columns of this query and of its joined tables,
    /// from column `startIndex`, and the index after its last column.
    private func rowAdapter(_ tables: SelectedTables, from startIndex: Int, isRoot: Bool, isSelected: Bool) throws
        -> (adapter: any RowAdapter, endIndex: Int)?
    {
        let joins = statementJoins
        // A table joined without its columns (joining, a pivot) has none,
        // but may lead to included tables.
        let width = isSelected ? try selection(tables.db).columnCount(tables, alias: alias) : 0
        var endIndex = startIndex + width
        var scopes: [String: any RowAdapter] = [:]
        for join in joins {
            if let (adapter, joinEndIndex) = try join.query.rowAdapter(
                tables, from: endIndex, isRoot: false, isSelected: join.isSelected)
            {
                scopes[join.key] = adapter
                endIndex = joinEndIndex
            }
        }
        if (isRoot || width == 0) && scopes.isEmpty { return nil }
        return (RangeRowAdapter(startIndex..<(startIndex + width)).addingScopes(scopes), endIndex)
    }
}

/// The tables a query selects columns of: tables and views of the
/// database, and the common table expressions of the query.
struct SelectedTables {
    let db: Database
    let commonTableExpressions: [SQLCTE]

    /// The names of the columns of a table, view, or common table
    /// expression of the query.
    func columnNames(of tableName: String) throws -> [String] {
        guard let cte = commonTableExpressions.first(where: { $0.tableName.lowercased() == tableName.lowercased() }) else {
            return try db.columns(in: tableName).map(\.name)
        }
        if let columns = cte.columns, !columns.isEmpty { return columns }
        // Its query tells its columns, with the expressions it may refer
        // to (all of them: a recursive one refers to those after it).
        let sql = try commonTableExpressions.withClause(SQLGenerationContext(db))
            + "SELECT * FROM " + cte.tableName.quotedDatabaseIdentifier
        do {
            return try db.cachedStatement(sql: sql).columnNames
        } catch let error as DatabaseError {
            throw DatabaseError(
                resultCode: error.resultCode,
                message: "Can't compute the number of columns in the \(cte.tableName.quotedDatabaseIdentifier) common table expression: \(error.message ?? "\(error.resultCode)"). Check the syntax of the SQL definition, or provide the explicit list of selected columns with the `columns` parameter in the CommonTableExpression initializer.")
        }
    }
}

extension [SQLSelection] {
    /// The number of columns of the selection, for a query on the table of
    /// `alias`.
    func columnCount(_ tables: SelectedTables, alias: TableAliasBase) throws -> Int {
        try reduce(0) { count, selection in
            try count + selection.columnCount(tables, alias: alias)
        }
    }
}

extension SQLSelection {
    /// The number of columns of the selection.
    func columnCount(_ tables: SelectedTables, alias: TableAliasBase) throws -> Int {
        switch impl {
        case .expression, .aliased:
            return 1
        case .allColumns:
            return try tables.columnNames(of: alias.tableName).count
        case .qualifiedAllColumns(let selectionAlias):
            return try tables.columnNames(of: selectionAlias.tableName).count
        case .allColumnsExcluding(let excluded):
            return try tables.columnNames(of: alias.tableName).count { !excluded.contains($0.lowercased()) }
        case let .qualifiedAllColumnsExcluding(selectionAlias, excluded):
            return try tables.columnNames(of: selectionAlias.tableName).count { !excluded.contains($0.lowercased()) }
        case .literal:
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "a request that includes associations can not select raw SQL, whose number of columns is unknown: select expressions instead")
        }
    }
}
