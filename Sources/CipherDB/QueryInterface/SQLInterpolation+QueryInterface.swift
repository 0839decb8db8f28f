import Foundation

// What SQL literals accept: values (bound as arguments), tables, columns,
// expressions, selections, orderings, subqueries, collations.
//
// ```swift
// let name = "O'Brien"
// let request: SQLRequest<Player> = """
//     SELECT \(columnsOf: Player.self) FROM \(Player.self)
//     WHERE \(Column("name")) = \(name) AND \(Column("id")) IN \([1, 2, 3])
//     """
// // SELECT "player".* FROM "player" WHERE "name" = ? AND "id" IN (?,?,?)
// ```

extension SQLInterpolation {
    // MARK: - Tables

    /// `\(Player.self)`: the quoted table name of a record type.
    public mutating func appendInterpolation(_ table: (some TableRecord).Type) {
        elements.append(.identifier(table.databaseTableName))
    }

    /// `\(type)`: the quoted table name of a record type.
    public mutating func appendInterpolation(_ table: any TableRecord.Type) {
        elements.append(.identifier(table.databaseTableName))
    }

    /// `\(Table("player"))`: the quoted table name.
    public mutating func appendInterpolation<T>(_ table: Table<T>) {
        elements.append(.identifier(table.tableName))
    }

    /// `\(tableOf: player)`: the quoted table name of a record.
    public mutating func appendInterpolation(tableOf record: some TableRecord) {
        elements.append(.identifier(type(of: record).databaseTableName))
    }

    /// `\(tableOf: player)`: the quoted table name of a record.
    public mutating func appendInterpolation(tableOf record: any TableRecord) {
        elements.append(.identifier(type(of: record).databaseTableName))
    }

    /// `\(identifier: "my table")`: a quoted identifier.
    public mutating func appendInterpolation(identifier: String) {
        elements.append(.identifier(identifier))
    }

    /// `\(columnsOf: Player.self)`: the selection of a record type,
    /// qualified with its table name or `tableAlias`: `"player".*`.
    public mutating func appendInterpolation(columnsOf recordType: (some TableRecord).Type, tableAlias: String? = nil) {
        let alias = TableAliasBase(tableName: recordType.databaseTableName, userName: tableAlias ?? recordType.databaseTableName)
        for (index, selectable) in recordType.databaseSelection.enumerated() {
            if index > 0 { appendLiteral(", ") }
            elements.append(.selection(selectable.sqlSelection.qualified(with: alias)))
        }
    }

    // MARK: - Selections, orderings, expressions

    /// `\(AllColumns())`, `\(Column("score").forKey("points"))`: a selection.
    public mutating func appendInterpolation(_ selection: some SQLSelectable) {
        elements.append(.selection(selection.sqlSelection))
    }

    /// A selection, or NULL.
    @_disfavoredOverload
    public mutating func appendInterpolation(_ selection: (any SQLSelectable)?) {
        if let selection {
            elements.append(.selection(selection.sqlSelection))
        } else {
            appendLiteral("NULL")
        }
    }

    /// `\(Column("score").desc)`: an ordering.
    public mutating func appendInterpolation(_ orderingTerm: some SQLOrderingTerm) {
        elements.append(.ordering(orderingTerm.sqlOrdering))
    }

    /// An ordering.
    @_disfavoredOverload
    public mutating func appendInterpolation(_ orderingTerm: any SQLOrderingTerm) {
        elements.append(.ordering(orderingTerm.sqlOrdering))
    }

    /// `\(Column("name"))`, `\(Column("score") + 1)`: an expression.
    public mutating func appendInterpolation(_ expressible: some SQLExpressible & SQLSelectable & SQLOrderingTerm) {
        elements.append(.expression(expressible.sqlExpression))
    }

    /// `\(value)`: a value, bound as an argument, or NULL for nil.
    @_disfavoredOverload
    public mutating func appendInterpolation(_ expressible: (any SQLExpressible)?) {
        if let expressible {
            elements.append(.expression(expressible.sqlExpression))
        } else {
            appendLiteral("NULL")
        }
    }

    /// `\(CodingKeys.name)`: the column of a coding key.
    public mutating func appendInterpolation(_ key: some CodingKey) {
        appendInterpolation(Column(key.stringValue))
    }

    /// `\(CodingKeys.name)`: the column of a coding key.
    public mutating func appendInterpolation(_ key: some CodingKey & SQLExpressible & SQLSelectable & SQLOrderingTerm) {
        appendInterpolation(Column(key.stringValue))
    }

    /// The column of a coding key.
    @_disfavoredOverload
    public mutating func appendInterpolation(_ key: any CodingKey) {
        appendInterpolation(Column(key.stringValue))
    }

    /// `\(request)`: the SQL of a request, which the literal parenthesizes
    /// when it is a subquery: `"SELECT * FROM player WHERE id IN (\(ids))"`.
    public mutating func appendInterpolation(
        _ subquery: some SQLSubqueryable & SQLExpressible & SQLSelectable & SQLOrderingTerm)
    {
        elements.append(.subquery(subquery.sqlSubquery))
    }

    // MARK: - Sequences

    /// `\([1, 2, 3])`: a parenthesized list, for `IN`: `(?,?,?)`. An empty
    /// list is a subquery that returns no row, so that `IN` is false.
    public mutating func appendInterpolation(_ sequence: some Sequence<some SQLExpressible>) {
        appendList(sequence.map(\.sqlExpression))
    }

    /// A parenthesized list of expressions.
    public mutating func appendInterpolation(_ sequence: some Sequence<any SQLExpressible>) {
        appendList(sequence.map(\.sqlExpression))
    }

    /// `\(data)`: a value that is also a sequence (`Data`) is a value.
    public mutating func appendInterpolation<S>(_ expressible: S)
        where S: SQLExpressible, S: Sequence, S.Element: SQLExpressible
    {
        elements.append(.expression(expressible.sqlExpression))
    }

    private mutating func appendList(_ expressions: [SQLExpression]) {
        if expressions.isEmpty {
            appendLiteral("(SELECT NULL WHERE NULL)")
            return
        }
        appendLiteral("(")
        for (index, expression) in expressions.enumerated() {
            if index > 0 { appendLiteral(",") }
            elements.append(.expression(expression))
        }
        appendLiteral(")")
    }

    // MARK: - Common table expressions

    /// `\(cte)`: the quoted name of a common table expression.
    public mutating func appendInterpolation(_ cte: CommonTableExpression<some Any>) {
        elements.append(.identifier(cte.tableName))
    }

    /// `\(definitionFor: cte)`: `name(columns) AS (SELECT …)`, for a
    /// `WITH` clause written in SQL.
    public mutating func appendInterpolation(definitionFor cte: CommonTableExpression<some Any>) {
        elements.append(.identifier(cte.tableName))
        if let columns = cte.cte.columns, !columns.isEmpty {
            appendLiteral("(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")")
        }
        appendLiteral(" AS (")
        elements.append(.subquery(cte.cte.subquery))
        appendLiteral(")")
    }

    // MARK: - Collations

    /// `\(collation)`: the name of a collation.
    public mutating func appendInterpolation(_ collation: DatabaseCollation) {
        appendLiteral(collation.name)
    }

    /// `\(.nocase)`: the name of a built-in collation.
    public mutating func appendInterpolation(_ collation: Database.CollationName) {
        appendLiteral(collation.rawValue)
    }
}
