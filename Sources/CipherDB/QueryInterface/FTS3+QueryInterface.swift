// Full-text search of FTS3 and FTS4 tables in the query interface.

extension TableRequest where Self: FilteredRequest {
    /// The rows of a full-text table that match `pattern` in any column
    /// (`WHERE "book" MATCH ?`); no row for a nil pattern, as for a search
    /// of no token.
    ///
    /// ```swift
    /// let pattern = FTS3Pattern(matchingAllTokensIn: "moby dick")
    /// let books = try Book.all().matching(pattern).fetchAll(db)
    /// ```
    public func matching(_ pattern: FTS3Pattern?) -> Self {
        guard let pattern else { return none() }
        let alias = TableAlias()
        return aliased(alias).filter(SQLExpression(.tableMatch(alias, pattern.sqlExpression)))
    }
}

extension TableRecord {
    /// The records of a full-text table that match `pattern` in any
    /// column; none for a nil pattern.
    ///
    /// ```swift
    /// let books = try Book.matching(FTS3Pattern(matchingPhrase: "moby dick")).fetchAll(db)
    /// ```
    public static func matching(_ pattern: FTS3Pattern?) -> QueryInterfaceRequest<Self> {
        all().matching(pattern)
    }
}

extension ColumnExpression {
    /// `column MATCH pattern`: the rows whose column matches `pattern`;
    /// `MATCH NULL`, which matches nothing, for a nil pattern.
    ///
    /// ```swift
    /// let books = try Book.filter(Column("title").match(pattern)).fetchAll(db)
    /// ```
    public func match(_ pattern: FTS3Pattern?) -> SQLExpression {
        .binary(.match, sqlExpression, pattern?.sqlExpression ?? .null)
    }
}
