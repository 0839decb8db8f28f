extension DatabaseReader {
    /// Prints the rows of all the statements of `sql`.
    ///
    /// ```swift
    /// // 1|Arthur|500
    /// // 2|Barbara|1000
    /// try dbQueue.dumpSQL("SELECT * FROM player ORDER BY id")
    /// ```
    ///
    /// See ``Database/dumpSQL(_:format:to:)``.
    public func dumpSQL(
        _ sql: SQL,
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil) throws
    {
        try unsafeReentrantRead { db in
            try db.dumpSQL(sql, format: format, to: stream)
        }
    }

    /// Prints the rows of a request, then the rows of each association
    /// it prefetches.
    ///
    /// ```swift
    /// // 1|Arthur|500
    /// // 2|Barbara|1000
    /// try dbQueue.dumpRequest(Player.orderByPrimaryKey())
    /// ```
    ///
    /// See ``Database/dumpRequest(_:format:to:)``.
    public func dumpRequest(
        _ request: some FetchRequest,
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil) throws
    {
        try unsafeReentrantRead { db in
            try db.dumpRequest(request, format: format, to: stream)
        }
    }

    /// Prints the rows of tables and views.
    ///
    /// ```swift
    /// // player
    /// // 1|Arthur|500
    /// //
    /// // team
    /// // 1|Red
    /// try dbQueue.dumpTables(["player", "team"])
    /// ```
    ///
    /// See ``Database/dumpTables(_:format:tableHeader:stableOrder:to:)``.
    public func dumpTables(
        _ tables: [String],
        format: some DumpFormat = .debug(),
        tableHeader: DumpTableHeaderOptions = .automatic,
        stableOrder: Bool = false,
        to stream: (any TextOutputStream)? = nil) throws
    {
        try unsafeReentrantRead { db in
            try db.dumpTables(tables, format: format, tableHeader: tableHeader, stableOrder: stableOrder, to: stream)
        }
    }

    /// Prints the schema of the database, then the rows of each table.
    ///
    /// ```swift
    /// try dbQueue.dumpContent(format: .quote())
    /// ```
    ///
    /// See ``Database/dumpContent(format:to:)``.
    public func dumpContent(
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil) throws
    {
        try unsafeReentrantRead { db in
            try db.dumpContent(format: format, to: stream)
        }
    }

    /// Prints the schema of the database.
    ///
    /// ```swift
    /// try dbQueue.dumpSchema()
    /// ```
    ///
    /// See ``Database/dumpSchema(to:)``.
    public func dumpSchema(to stream: (any TextOutputStream)? = nil) throws {
        try unsafeReentrantRead { db in
            try db.dumpSchema(to: stream)
        }
    }
}
