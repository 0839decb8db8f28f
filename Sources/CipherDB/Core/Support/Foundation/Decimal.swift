import CSQLCipher
import Foundation

/// Stored as TEXT, so that no precision is lost. Decodes from text,
/// integers and doubles.
extension Decimal: DatabaseValueConvertible, StatementColumnConvertible {
    @inline(__always)
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_INTEGER:
            self.init(sqlite3_column_int64(sqliteStatement, index))
        case SQLITE_FLOAT:
            self.init(sqlite3_column_double(sqliteStatement, index))
        case SQLITE_TEXT:
            guard let decimal = Decimal(string: String(cString: sqlite3_column_text(sqliteStatement, index)!),
                                        locale: Decimal.posixLocale) else { return nil }
            self = decimal
        default:
            return nil
        }
    }

    private static let posixLocale = Locale(identifier: "en_US_POSIX")

    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .string(NSDecimalNumber(decimal: self).description(withLocale: Decimal.posixLocale)))
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Decimal? {
        switch dbValue.storage {
        case .int64(let int64): return Decimal(int64)
        case .double(let double): return Decimal(double)
        case .string(let string): return Decimal(string: string, locale: posixLocale)
        default: return nil
        }
    }
}
