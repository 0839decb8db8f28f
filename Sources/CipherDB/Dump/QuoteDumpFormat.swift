/// A format that prints one line per row, values written as SQL literals
/// and separated by `,` by default.
///
/// ```swift
/// // 'Arthur',500
/// // 'Barbara',1000
/// try db.dumpRequest(Player.all(), format: .quote())
/// ```
///
/// See <https://sqlite.org/cli.html#changing_output_formats>.
public struct QuoteDumpFormat: Sendable {
    /// Whether the column names, as SQL literals, are printed before the
    /// first row.
    public var header: Bool

    /// The separator between values.
    public var separator: String

    private var isFirstRow = true

    /// Creates a `QuoteDumpFormat`.
    public init(header: Bool = false, separator: String = ",") {
        self.header = header
        self.separator = separator
    }
}

extension QuoteDumpFormat: DumpFormat {
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        if isFirstRow {
            isFirstRow = false
            if header {
                stream.writeLine(statement.columnNames
                    .map { $0.databaseValue.sqlLiteral }
                    .joined(separator: separator))
            }
        }
        let sqliteStatement = statement.sqliteStatement
        stream.writeLine(statement.dumpedColumns
            .map { DatabaseValue(sqliteStatement: sqliteStatement, index: $0.index).sqlLiteral }
            .joined(separator: separator))
    }

    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        isFirstRow = true
    }
}

extension DumpFormat where Self == QuoteDumpFormat {
    /// A format that prints one line per row, values written as SQL
    /// literals and separated by `,` by default.
    ///
    /// ```swift
    /// // 'Arthur',500
    /// // 'Barbara',1000
    /// try db.dumpRequest(Player.all(), format: .quote())
    /// ```
    ///
    /// - parameters:
    ///   - header: whether the column names are printed before the first row.
    ///   - separator: the separator between values.
    public static func quote(header: Bool = false, separator: String = ",") -> Self {
        QuoteDumpFormat(header: header, separator: separator)
    }
}
