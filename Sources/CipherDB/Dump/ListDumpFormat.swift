import CSQLCipher

/// A format that prints one line per row, values separated by `|` by
/// default; blobs are printed as UTF-8 text.
///
/// ```swift
/// // Arthur|500
/// // Barbara|1000
/// try db.dumpRequest(Player.all(), format: .list())
/// ```
///
/// See <https://sqlite.org/cli.html#changing_output_formats>.
public struct ListDumpFormat: Sendable {
    /// Whether the column names are printed before the first row.
    public var header: Bool

    /// The separator between values.
    public var separator: String

    /// The text of NULL values.
    public var nullValue: String

    private var isFirstRow = true

    /// Creates a `ListDumpFormat`.
    public init(header: Bool = false, separator: String = "|", nullValue: String = "") {
        self.header = header
        self.separator = separator
        self.nullValue = nullValue
    }
}

extension ListDumpFormat: DumpFormat {
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        stream.writeSeparatedRow(statement, header: header, separator: separator, isFirstRow: &isFirstRow, value: { [nullValue] in DumpValue.text($0, $1, nullValue: nullValue) })
    }

    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        isFirstRow = true
    }
}

extension DumpFormat where Self == ListDumpFormat {
    /// A format that prints one line per row, values separated by `|` by
    /// default; blobs are printed as UTF-8 text.
    ///
    /// ```swift
    /// // Arthur|500
    /// // Barbara|1000
    /// try db.dumpRequest(Player.all(), format: .list())
    /// ```
    ///
    /// - parameters:
    ///   - header: whether the column names are printed before the first row.
    ///   - separator: the separator between values.
    ///   - nullValue: the text of NULL values.
    public static func list(header: Bool = false, separator: String = "|", nullValue: String = "") -> Self {
        ListDumpFormat(header: header, separator: separator, nullValue: nullValue)
    }
}
