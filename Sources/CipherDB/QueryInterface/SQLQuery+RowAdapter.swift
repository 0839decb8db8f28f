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
        try rowAdapter(context, from: 0, isRoot: true, isSelected: true)?.adapter
    }

    /// The adapter of the columns of this query and of its joined tables,
    /// from column `startIndex`, and the index after its last column.
    private func rowAdapter(_ context: SQLGenerationContext, from startIndex: Int, isRoot: Bool, isSelected: Bool) throws
        -> (adapter: any RowAdapter, endIndex: Int)?
    {
        let joins = statementJoins
        if isRoot && joins.isEmpty { return nil }
        // A table joined without its columns (joining, a pivot) has none,
        // but may lead to included tables.
        let width = isSelected ? try selection(context.db).columnCount(context, alias: alias) : 0
        var endIndex = startIndex + width
        var scopes: [String: any RowAdapter] = [:]
        for join in joins {
            if let (adapter, joinEndIndex) = try join.query.rowAdapter(
                context, from: endIndex, isRoot: false, isSelected: join.isSelected)
            {
                scopes[join.key] = adapter
                endIndex = joinEndIndex
            }
        }
        if (isRoot || width == 0) && scopes.isEmpty { return nil }
        return (RangeRowAdapter(startIndex..<(startIndex + width)).addingScopes(scopes), endIndex)
    }
}

extension [SQLSelection] {
    /// The number of columns of the selection, for a query on the table of
    /// `alias`.
    func columnCount(_ context: SQLGenerationContext, alias: TableAliasBase) throws -> Int {
        try reduce(0) { count, selection in
            try count + selection.columnCount(context, alias: alias)
        }
    }
}

extension SQLSelection {
    /// The number of columns of the selection.
    func columnCount(_ context: SQLGenerationContext, alias: TableAliasBase) throws -> Int {
        switch impl {
        case .expression, .aliased:
            return 1
        case .allColumns:
            return try context.db.columns(in: alias.tableName).count
        case .qualifiedAllColumns(let selectionAlias):
            return try context.db.columns(in: selectionAlias.tableName).count
        case .allColumnsExcluding(let excluded):
            return try context.db.columns(in: alias.tableName).count { !excluded.contains($0.name.lowercased()) }
        case let .qualifiedAllColumnsExcluding(selectionAlias, excluded):
            return try context.db.columns(in: selectionAlias.tableName).count { !excluded.contains($0.name.lowercased()) }
        case .literal:
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "a request that includes associations can not select raw SQL, whose number of columns is unknown: select expressions instead")
        }
    }
}
