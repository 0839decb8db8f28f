import CSQLCipher

/// A type that prints database rows, for the dump methods such as
/// ``Database/dumpSQL(_:format:to:)`` and ``DatabaseReader/dumpContent(format:to:)``.
///
/// The built-in formats follow the output modes of the SQLite command line
/// tool: ``DumpFormat/debug(header:separator:nullValue:)`` (the default),
/// ``DumpFormat/json(encoder:)``, ``DumpFormat/line(nullValue:)``,
/// ``DumpFormat/list(header:separator:nullValue:)`` and
/// ``DumpFormat/quote(header:separator:)``:
///
/// ```swift
/// try db.dumpSQL("SELECT * FROM player", format: .quote(header: true))
/// // 'id','name','score'
/// // 1,'Arthur',500
/// ```
///
/// A custom format writes each row of a statement, then is told when the
/// statement has no more rows. A copy of the format prints each statement,
/// so that state kept between rows starts afresh.
///
/// See <https://sqlite.org/cli.html#changing_output_formats>.
public protocol DumpFormat {
    /// Writes the current row of `statement`.
    mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws

    /// Called once all the rows of `statement` are written.
    mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream)
}

/// A text output stream for dumps: it writes to another stream, and can
/// leave an empty line before the next text (``margin()``).
///
/// ```swift
/// stream.write("first")
/// stream.margin()
/// stream.write("second") // "\nsecond"
/// ```
public struct DumpStream {
    private var base: any TextOutputStream
    private var needsMarginLine = false

    /// A stream that writes to `base`, or to the standard output.
    init(_ base: (any TextOutputStream)?) {
        self.base = base ?? StandardOutputStream()
    }

    /// Makes the next write of a non-empty string that does not start
    /// with a line feed write one first.
    public mutating func margin() {
        needsMarginLine = true
    }
}

extension DumpStream: TextOutputStream {
    public mutating func write(_ string: String) {
        if needsMarginLine && !string.isEmpty {
            needsMarginLine = false
            if string.first != "\n" {
                base.write("\n")
            }
        }
        base.write(string)
    }

    /// Writes `string`, then a line feed.
    mutating func writeLine(_ string: String) {
        write(string)
        write("\n")
    }

    /// A row of the formats that join the values of a row with a separator
    /// (`list`, `debug`), after the column names when `header` is true and
    /// the row is the first.
    mutating func writeSeparatedRow(
        _ statement: Statement,
        header: Bool,
        separator: String,
        isFirstRow: inout Bool,
        value: (SQLiteStatement, CInt) -> String)
    {
        if isFirstRow {
            isFirstRow = false
            if header {
                writeLine(statement.columnNames.joined(separator: separator))
            }
        }
        let sqliteStatement = statement.sqliteStatement
        writeLine(statement.dumpedColumns
            .map { value(sqliteStatement, $0.index) }
            .joined(separator: separator))
    }
}

/// The standard output, the stream of dumps by default.
private struct StandardOutputStream: TextOutputStream {
    func write(_ string: String) {
        print(string, terminator: "")
    }
}

/// Options for printing table names in ``Database/dumpTables(_:format:tableHeader:stableOrder:to:)``.
public enum DumpTableHeaderOptions: Sendable {
    /// Table names are printed only when several tables are printed.
    case automatic

    /// Table names are always printed.
    case always
}

// MARK: - Helpers of the formats

extension Statement {
    /// The columns that dumps print, by index and name: all but the
    /// `grdb_`-prefixed ones, which the toolkit adds to the rows of
    /// prefetched associations.
    var dumpedColumns: [(index: CInt, name: String)] {
        columnNames.enumerated().compactMap { index, name in
            name.starts(with: "grdb_") ? nil : (CInt(index), name)
        }
    }
}

enum DumpValue {
    /// The value of column `index` as plain text: NULL as `nullValue`,
    /// numbers as Swift prints them, text and blobs as UTF-8 text
    /// (invalid bytes replaced).
    static func text(_ sqliteStatement: SQLiteStatement, _ index: CInt, nullValue: String) -> String {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_NULL:
            return nullValue
        case SQLITE_INTEGER:
            return String(sqlite3_column_int64(sqliteStatement, index))
        case SQLITE_FLOAT:
            return String(sqlite3_column_double(sqliteStatement, index))
        default:
            return String.fromStatement(sqliteStatement, atUncheckedIndex: index) ?? ""
        }
    }
}
