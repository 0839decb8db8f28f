/// A format that prints one line per value, `column = value`, with an
/// empty line between rows; blobs are printed as UTF-8 text.
///
/// ```swift
/// //  name = Arthur
/// // score = 500
/// //
/// //  name = Barbara
/// // score = 1000
/// try db.dumpRequest(Player.all(), format: .line())
/// ```
///
/// See <https://sqlite.org/cli.html#changing_output_formats>.
public struct LineDumpFormat: Sendable {
    /// The text of NULL values.
    public var nullValue: String

    private var isFirstRow = true

    /// Creates a `LineDumpFormat`.
    public init(nullValue: String = "") {
        self.nullValue = nullValue
    }
}

extension LineDumpFormat: DumpFormat {
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        let columns = statement.dumpedColumns
        guard let nameWidth = columns.map(\.name.count).max() else { return }
        if isFirstRow {
            isFirstRow = false
        } else {
            stream.write("\n")
        }
        let sqliteStatement = statement.sqliteStatement
        for (index, name) in columns {
            // Names are aligned on the right.
            stream.write(String(repeating: " ", count: nameWidth - name.count) + name)
            stream.write(" = ")
            stream.writeLine(DumpValue.text(sqliteStatement, index, nullValue: nullValue))
        }
    }

    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        if !isFirstRow {
            // An empty line before the rows of the next statement, if any.
            stream.margin()
        }
        isFirstRow = true
    }
}

extension DumpFormat where Self == LineDumpFormat {
    /// A format that prints one line per value, `column = value`, with an
    /// empty line between rows; blobs are printed as UTF-8 text.
    ///
    /// ```swift
    /// //  name = Arthur
    /// // score = 500
    /// //
    /// //  name = Barbara
    /// // score = 1000
    /// try db.dumpRequest(Player.all(), format: .line())
    /// ```
    ///
    /// - parameter nullValue: the text of NULL values.
    public static func line(nullValue: String = "") -> Self {
        LineDumpFormat(nullValue: nullValue)
    }
}
