import CSQLCipher
import Foundation

/// A format that prints one line per row, for debugging: values are
/// separated by `|` by default; blobs are printed as text when they are
/// UTF-8, as a UUID when they are 16 bytes long, and as an SQL literal
/// otherwise.
///
/// The format may change in future releases: do not parse it, or compare
/// it in tests.
///
/// ```swift
/// // Arthur|500
/// // Barbara|1000
/// try db.dumpRequest(Player.all(), format: .debug())
/// ```
public struct DebugDumpFormat: Sendable {
    /// Whether the column names are printed before the first row.
    public var header: Bool

    /// The separator between values.
    public var separator: String

    /// The text of NULL values.
    public var nullValue: String

    private var isFirstRow = true

    /// Creates a `DebugDumpFormat`.
    public init(header: Bool = false, separator: String = "|", nullValue: String = "") {
        self.header = header
        self.separator = separator
        self.nullValue = nullValue
    }
}

extension DebugDumpFormat: DumpFormat {
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        stream.writeSeparatedRow(statement, header: header, separator: separator, isFirstRow: &isFirstRow, value: { [nullValue] in Self.formattedValue($0, $1, nullValue: nullValue) })
    }

    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        isFirstRow = true
    }

    private static func formattedValue(_ sqliteStatement: SQLiteStatement, _ index: CInt, nullValue: String) -> String {
        guard sqlite3_column_type(sqliteStatement, index) == SQLITE_BLOB else {
            return DumpValue.text(sqliteStatement, index, nullValue: nullValue)
        }
        let data = Data(sqliteStatement: sqliteStatement, index: index)
        if let string = String(data: data, encoding: .utf8) {
            return string
        }
        if let uuid = UUID.fromStatement(sqliteStatement, atUncheckedIndex: index) {
            return uuid.uuidString
        }
        return data.databaseValue.sqlLiteral
    }
}

extension DumpFormat where Self == DebugDumpFormat {
    /// A format that prints one line per row, for debugging: values are
    /// separated by `|` by default; blobs are printed as text when they
    /// are UTF-8, as a UUID when they are 16 bytes long, and as an SQL
    /// literal otherwise.
    ///
    /// The format may change in future releases: do not parse it, or
    /// compare it in tests.
    ///
    /// ```swift
    /// // Arthur|500
    /// // Barbara|1000
    /// try db.dumpRequest(Player.all(), format: .debug())
    /// ```
    ///
    /// - parameters:
    ///   - header: whether the column names are printed before the first row.
    ///   - separator: the separator between values.
    ///   - nullValue: the text of NULL values.
    public static func debug(header: Bool = false, separator: String = "|", nullValue: String = "") -> Self {
        DebugDumpFormat(header: header, separator: separator, nullValue: nullValue)
    }
}
