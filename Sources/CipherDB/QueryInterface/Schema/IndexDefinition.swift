/// Options of `CREATE INDEX`.
///
/// ```swift
/// try db.create(indexOn: "player", columns: ["email"], options: [.unique, .ifNotExists])
/// ```
public struct IndexOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `CREATE INDEX IF NOT EXISTS`.
    public static let ifNotExists = IndexOptions(rawValue: 1 << 0)
    /// `CREATE UNIQUE INDEX`.
    public static let unique = IndexOptions(rawValue: 1 << 1)
}

/// An index to create:
/// `CREATE [UNIQUE] INDEX [IF NOT EXISTS] "name" ON "table"(expressions) [WHERE condition]`.
struct IndexDefinition {
    var name: String
    var table: String
    var expressions: [SQLExpression]
    var options: IndexOptions
    var condition: SQLExpression?

    init(name: String, table: String, expressions: [SQLExpression], options: IndexOptions, condition: SQLExpression? = nil) {
        self.name = name
        self.table = table
        self.expressions = expressions
        self.options = options
        self.condition = condition
    }

    /// An index on columns, named `index_table_on_a_b` unless named.
    init(name: String? = nil, table: String, columns: [String], options: IndexOptions, condition: SQLExpression? = nil) {
        self.init(
            name: name ?? Self.defaultName(table: table, columns: columns), table: table,
            expressions: columns.map { Column($0).sqlExpression }, options: options, condition: condition)
    }

    /// The name GRDB gives an index on columns: `index_table_on_a_b`.
    static func defaultName(table: String, columns: [String]) -> String {
        "index_" + table + "_on_" + columns.joined(separator: "_")
    }

    /// The `CREATE INDEX` statement, with values written as SQL literals.
    func sql(_ db: Database) throws -> String {
        let context = SQLGenerationContext.inliningValues(db)
        var sql = "CREATE "
        if options.contains(.unique) { sql += "UNIQUE " }
        sql += "INDEX "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        sql += name.quotedDatabaseIdentifier + " ON " + table.quotedDatabaseIdentifier + "("
        sql += try expressions.map { try $0.sql(context) }.joined(separator: ", ") + ")"
        if let condition {
            sql += " WHERE " + (try condition.sql(context))
        }
        return sql
    }
}
