import Foundation

extension Database {
    /// Prints the rows of all the statements of `sql`.
    ///
    /// ```swift
    /// // 1|Arthur|500
    /// // 2|Barbara|1000
    /// try db.dumpSQL("SELECT * FROM player ORDER BY id")
    /// ```
    ///
    /// The statements run one after the other: those before a failing
    /// one are printed, then the error is thrown.
    ///
    /// - parameters:
    ///   - sql: the SQL, one or several statements.
    ///   - format: the output format.
    ///   - stream: where the text goes; the standard output by default.
    public func dumpSQL(
        _ sql: SQL,
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil) throws
    {
        var dumpStream = DumpStream(stream)
        let statements = try allStatements(literal: sql)
        while let statement = try statements.next() {
            try dump(statement, format: format, to: &dumpStream)
        }
    }

    /// Prints the rows of a request, then the rows of each association
    /// it prefetches (`including(all:)`), after its name.
    ///
    /// ```swift
    /// // 1|Arthur|500
    /// // 2|Barbara|1000
    /// try db.dumpRequest(Player.orderByPrimaryKey())
    /// ```
    ///
    /// - parameters:
    ///   - request: the request.
    ///   - format: the output format.
    ///   - stream: where the text goes; the standard output by default.
    public func dumpRequest(
        _ request: some FetchRequest,
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil) throws
    {
        var dumpStream = DumpStream(stream)
        try dump(request, format: format, to: &dumpStream)
    }

    /// Prints the rows of tables and views: the rows of a table by
    /// primary key, and the rows of a view in its own order, or in a
    /// stable order.
    ///
    /// ```swift
    /// // player
    /// // 1|Arthur|500
    /// // 2|Barbara|1000
    /// //
    /// // team
    /// // 1|Red
    /// try db.dumpTables(["player", "team"])
    /// ```
    ///
    /// - parameters:
    ///   - tables: the names of the tables and views.
    ///   - format: the output format.
    ///   - tableHeader: when the names of the tables are printed.
    ///   - stableOrder: whether the rows of views are sorted by all their
    ///     columns (or by the primary key that the configuration's
    ///     ``Configuration/schemaSource`` gives), so that the output is
    ///     the same every time, as tests need. If false, the rows of a
    ///     view are printed in the order of the view, which may be
    ///     undefined.
    ///   - stream: where the text goes; the standard output by default.
    public func dumpTables(
        _ tables: [String],
        format: some DumpFormat = .debug(),
        tableHeader: DumpTableHeaderOptions = .automatic,
        stableOrder: Bool = false,
        to stream: (any TextOutputStream)? = nil) throws
    {
        var dumpStream = DumpStream(stream)
        try dump(tables, format: format, tableHeader: tableHeader, stableOrder: stableOrder, to: &dumpStream)
    }

    /// Prints the schema of the database, then the rows of each table.
    ///
    /// ```swift
    /// try db.dumpContent()
    /// // sqlite_master
    /// // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
    /// //
    /// // player
    /// // 1|Arthur|500
    /// // 2|Barbara|1000
    /// ```
    ///
    /// SQLite's and the toolkit's own objects (their names start with
    /// `sqlite_` or `grdb_`) and the shadow tables of virtual tables
    /// (`document_ft_segments`…) are not printed.
    ///
    /// - parameters:
    ///   - format: the output format of the rows.
    ///   - stream: where the text goes; the standard output by default.
    public func dumpContent(
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil) throws
    {
        var dumpStream = DumpStream(stream)
        let ignoredNames = try dumpIgnoredNames()
        try dumpSchema(ignoring: ignoredNames, to: &dumpStream)
        dumpStream.margin()
        let tables = try String.fetchAll(self, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name COLLATE NOCASE
            """)
        try dump(
            tables.filter { !ignoredNames.contains($0) },
            format: format, tableHeader: .always, stableOrder: true, to: &dumpStream)
    }

    /// Prints the schema of the database: the SQL of its tables, indexes,
    /// views and triggers, grouped by table.
    ///
    /// ```swift
    /// try db.dumpSchema()
    /// // sqlite_master
    /// // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
    /// ```
    ///
    /// SQLite's and the toolkit's own objects (their names start with
    /// `sqlite_` or `grdb_`) and the shadow tables of virtual tables
    /// (`document_ft_segments`…) are not printed.
    ///
    /// - parameter stream: where the text goes; the standard output by default.
    public func dumpSchema(to stream: (any TextOutputStream)? = nil) throws {
        var dumpStream = DumpStream(stream)
        try dumpSchema(ignoring: dumpIgnoredNames(), to: &dumpStream)
    }
}

// MARK: - Printing

extension Database {
    /// Prints the rows of one statement, with a copy of `format`.
    private func dump(_ statement: Statement, format: some DumpFormat, to stream: inout DumpStream) throws {
        var format = format
        let stepper = try StatementStepper(statement: statement, arguments: nil)
        while try stepper.step() {
            try format.writeRow(self, statement: statement, to: &stream)
        }
        format.finalize(self, statement: statement, to: &stream)
    }

    private func dump(_ request: some FetchRequest, format: some DumpFormat, to stream: inout DumpStream) throws {
        let preparedRequest = try request.makePreparedRequest(self, forSingleResult: false)
        try dump(preparedRequest.statement, format: format, to: &stream)
        guard let supplementaryFetch = preparedRequest.supplementaryFetch else { return }
        // The rows of the request, whose associations are printed by the
        // supplementary fetch, as it fetches them.
        let rows = try Row.fetchAll(preparedRequest.statement, adapter: preparedRequest.adapter)
        try withoutActuallyEscaping({ (request: QueryInterfaceRequest<Row>, keyPath: [String]) in
            stream.write("\n")
            stream.writeLine(keyPath.joined(separator: "."))
            try self.dump(request, format: format, to: &stream)
        }) { willFetch in
            try supplementaryFetch(self, rows, willFetch)
        }
    }

    private func dump(
        _ tables: [String],
        format: some DumpFormat,
        tableHeader: DumpTableHeaderOptions,
        stableOrder: Bool,
        to stream: inout DumpStream) throws
    {
        let printsNames = tableHeader == .always || tables.count > 1
        for (position, table) in tables.enumerated() {
            if position > 0 {
                stream.write("\n")
            }
            if printsNames {
                stream.writeLine(table)
            }
            if try tableExists(table) {
                try dump(Table(table).orderByPrimaryKey(), format: format, to: &stream)
            } else if stableOrder {
                try dump(Table(table).all().withStableOrder(), format: format, to: &stream)
            } else {
                try dump(Table(table).all(), format: format, to: &stream)
            }
        }
    }

    /// Prints the SQL of the schema objects, a table first, then its
    /// indexes, then its other objects (triggers, views named after it…).
    private func dumpSchema(ignoring ignoredNames: Set<String>, to stream: inout DumpStream) throws {
        stream.writeLine("sqlite_master")
        let rows = try Row.fetchAll(self, sql: """
            SELECT sql || ';', name
            FROM sqlite_master
            WHERE sql IS NOT NULL
            ORDER BY tbl_name COLLATE NOCASE,
                     CASE type WHEN 'table' THEN 'a' WHEN 'index' THEN 'aa' ELSE type END,
                     name COLLATE NOCASE,
                     sql
            """)
        for row in rows where !ignoredNames.contains(row[1]) {
            stream.writeLine(row[0])
        }
    }
}

// MARK: - Ignored objects

extension Database {
    /// The names of the schema objects that dumps do not print: SQLite's
    /// and the toolkit's own, and the shadow tables of virtual tables,
    /// where they keep their content (`document_ft_segments` for the FTS4
    /// table `document_ft`).
    ///
    /// SQLite 3.37+ tells shadow tables apart (`PRAGMA table_list`);
    /// SQLite 3.15.2 does not, so they are found as SQLite 3.37 finds
    /// them: the name of a virtual table, `_`, and a suffix that its
    /// module keeps.
    ///
    /// See <https://www.sqlite.org/vtab.html#xshadowname>.
    private func dumpIgnoredNames() throws -> Set<String> {
        let objects = try Row.fetchAll(self, sql: "SELECT name, sql FROM sqlite_master")
        var shadowTables: Set<String> = []
        for object in objects {
            let name: String = object[0]
            guard let sql: String = object[1], sql.starts(with: "CREATE VIRTUAL TABLE"),
                  let match = Self.virtualTableModule.firstMatch(in: sql, range: NSRange(sql.startIndex..., in: sql)),
                  let moduleRange = Range(match.range(at: 1), in: sql),
                  let suffixes = Self.shadowTableSuffixes[sql[moduleRange].lowercased()]
            else { continue }
            for suffix in suffixes {
                shadowTables.insert("\(name)_\(suffix)".lowercased())
            }
        }
        return Set(objects.map { $0[0] as String }.filter { name in
            Database.isSQLiteInternalTable(name)
                || Database.isGRDBInternalTable(name)
                || shadowTables.contains(name.lowercased())
        })
    }

    /// The module of a virtual table in its `CREATE VIRTUAL TABLE` SQL.
    private static let virtualTableModule = try! NSRegularExpression(
        pattern: #"\bUSING\s+(\w+)"#, options: [.caseInsensitive])

    /// The suffixes of the shadow tables of the modules that have some
    /// (their `xShadowName` method).
    private static let shadowTableSuffixes: [String: [String]] = [
        "fts3": ["content", "docsize", "segdir", "segments", "stat"],
        "fts4": ["content", "docsize", "segdir", "segments", "stat"],
        "fts5": ["config", "content", "data", "docsize", "idx"],
        "rtree": ["node", "parent", "rowid"],
        "rtree_i32": ["node", "parent", "rowid"],
    ]
}
