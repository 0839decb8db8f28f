import CSQLCipher
import Foundation

/// Dates are stored as GRDB stores them: UTC text `yyyy-MM-dd HH:mm:ss.SSS`,
/// which sorts and compares as dates do in SQL.
///
/// They decode from that format and its variants (`yyyy-MM-dd`,
/// `yyyy-MM-dd HH:mm`, a `T` separator, seconds with decimals of which
/// the first three count, a trailing `Z` or `±HH:MM` offset), as GRDB
/// does, and from numbers, read as Unix timestamps. A time alone
/// (`12:00`) is not a date: see ``DatabaseDateComponents``.
///
/// A date outside the years 0000 to 9999, which that text cannot hold
/// (SQLite's date functions stop there too), is stored as its Unix
/// timestamp, a REAL that decodes to the same date; a NaN date as NULL.
/// No date traps, whatever its origin.
///
/// See <https://www.sqlite.org/lang_datefunc.html>.
extension Date: DatabaseValueConvertible, StatementColumnConvertible {
    /// Parses the text in place, with no intermediate `String`.
    @inline(__always)
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_INTEGER:
            self.init(timeIntervalSince1970: TimeInterval(sqlite3_column_int64(sqliteStatement, index)))
        case SQLITE_FLOAT:
            self.init(timeIntervalSince1970: sqlite3_column_double(sqliteStatement, index))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(sqliteStatement, index) else { return nil }
            let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(sqliteStatement, index)))
            guard let date = DatabaseDateFormat.date(from: bytes) else { return nil }
            self = date
        default:
            return nil
        }
    }

    public var databaseValue: DatabaseValue {
        guard let string = DatabaseDateFormat.string(from: self) else {
            return timeIntervalSince1970.isNaN ? .null : timeIntervalSince1970.databaseValue
        }
        return DatabaseValue(storage: .string(string))
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Date? {
        switch dbValue.storage {
        case .int64(let int64): return Date(timeIntervalSince1970: TimeInterval(int64))
        case .double(let double): return Date(timeIntervalSince1970: double)
        case .string(var string): return string.withUTF8 { DatabaseDateFormat.date(from: $0) }
        default: return nil
        }
    }
}
