/// The options of ``Database/create(view:options:columns:as:)``.
public struct ViewOptions: OptionSet, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `CREATE VIEW IF NOT EXISTS`.
    public static let ifNotExists = ViewOptions(rawValue: 1 << 0)
    /// `CREATE TEMPORARY VIEW`: dropped when the connection closes.
    public static let temporary = ViewOptions(rawValue: 1 << 1)
}

extension Database {
    /// Creates a view of a request. SQLite stores no argument in a view:
    /// the request's values are written in its SQL as literals.
    ///
    /// ```swift
    /// // CREATE VIEW "champion" AS SELECT * FROM "player" WHERE "score" > 1000
    /// try db.create(view: "champion", as: Player.filter(Column("score") > 1000))
    /// ```
    ///
    /// See <https://www.sqlite.org/lang_createview.html>.
    public func create(view name: String, options: ViewOptions = [], columns: [String]? = nil, as request: some SQLSubqueryable) throws {
        var sql = "CREATE "
        if options.contains(.temporary) { sql += "TEMPORARY " }
        sql += "VIEW "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        sql += name.quotedDatabaseIdentifier + " "
        if let columns { sql += "(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ") " }
        sql += "AS " + (try request.sqlSubquery.sql(.inliningValues(self)))
        try execute(sql: sql)
    }

    /// Creates a view of an SQL literal, whose values are written as SQL
    /// literals: `try db.create(view: "recent", asLiteral: "SELECT * FROM log WHERE day > \(day)")`.
    public func create(view name: String, options: ViewOptions = [], columns: [String]? = nil, asLiteral sqlLiteral: SQL) throws {
        try create(view: name, options: options, columns: columns, as: SQLRequest<Row>(literal: sqlLiteral))
    }

    /// Drops a view.
    public func drop(view name: String) throws {
        try execute(sql: "DROP VIEW \(name.quotedDatabaseIdentifier)")
    }
}
