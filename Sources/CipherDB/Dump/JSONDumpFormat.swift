import CSQLCipher
import Foundation

/// A format that prints the rows of each statement as a JSON array of
/// objects, one row per line.
///
/// ```swift
/// // [{"name":"Arthur","score":500},
/// // {"name":"Barbara","score":1000}]
/// try db.dumpRequest(Player.all(), format: .json())
/// ```
///
/// Values are encoded by a `JSONEncoder`, ``defaultEncoder`` unless another
/// is given. With the `.prettyPrinted` output formatting, the array has
/// one value per line:
///
/// ```swift
/// let encoder = JSONDumpFormat.defaultEncoder
/// encoder.outputFormatting = .prettyPrinted
/// try db.dumpRequest(Player.all(), format: .json(encoder: encoder))
/// ```
public struct JSONDumpFormat: Sendable {
    /// A new `JSONEncoder` for database values: blobs are encoded in
    /// base64, non-conforming floats as `"inf"`, `"-inf"` and `"nan"`, and
    /// slashes are not escaped. Changing it changes no other encoder.
    public static var defaultEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf",
            negativeInfinity: "-inf",
            nan: "nan")
        encoder.dataEncodingStrategy = .base64
        return encoder
    }

    /// The encoder of the column names and the values.
    public var encoder: JSONEncoder

    private var isFirstRow = true

    /// Creates a `JSONDumpFormat`.
    public init(encoder: JSONEncoder = JSONDumpFormat.defaultEncoder) {
        self.encoder = encoder
    }
}

extension JSONDumpFormat: DumpFormat {
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
        let isPretty = encoder.outputFormatting.contains(.prettyPrinted)
        if isFirstRow {
            isFirstRow = false
            stream.write(isPretty ? "[\n" : "[")
        } else {
            stream.write(",\n")
        }
        stream.write(isPretty ? "  {" : "{")
        let sqliteStatement = statement.sqliteStatement
        for (position, column) in statement.dumpedColumns.enumerated() {
            if position > 0 {
                stream.write(",")
            }
            if isPretty {
                stream.write("\n    ")
            }
            stream.write(try encoded(column.name))
            stream.write(":")
            stream.write(try encodedValue(sqliteStatement, column.index))
        }
        stream.write(isPretty ? "\n  }" : "}")
    }

    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        if isFirstRow {
            // No row: an empty array, unless the statement returns no
            // column at all (CREATE TABLE…).
            if statement.columnCount > 0 {
                stream.writeLine("[]")
            }
        } else {
            if encoder.outputFormatting.contains(.prettyPrinted) {
                stream.write("\n")
            }
            stream.writeLine("]")
        }
        isFirstRow = true
    }

    private func encodedValue(_ sqliteStatement: SQLiteStatement, _ index: CInt) throws -> String {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_NULL:
            return "null"
        case SQLITE_INTEGER:
            return try encoded(sqlite3_column_int64(sqliteStatement, index))
        case SQLITE_FLOAT:
            return try encoded(sqlite3_column_double(sqliteStatement, index))
        case SQLITE_BLOB:
            return try encoded(Data(sqliteStatement: sqliteStatement, index: index))
        default:
            return try encoded(String.fromStatement(sqliteStatement, atUncheckedIndex: index) ?? "")
        }
    }

    private func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

extension DumpFormat where Self == JSONDumpFormat {
    /// A format that prints the rows of each statement as a JSON array of
    /// objects, one row per line.
    ///
    /// ```swift
    /// // [{"name":"Arthur","score":500},
    /// // {"name":"Barbara","score":1000}]
    /// try db.dumpRequest(Player.all(), format: .json())
    /// ```
    ///
    /// - parameter encoder: the encoder of the column names and the
    ///   values. With the `.prettyPrinted` output formatting, the array
    ///   has one value per line.
    public static func json(encoder: JSONEncoder = JSONDumpFormat.defaultEncoder) -> Self {
        JSONDumpFormat(encoder: encoder)
    }
}
