import CSQLCipher
import Foundation

// MARK: - Data

/// Stored as a BLOB. Decodes from blobs and from text (its UTF-8 bytes).
extension Data: DatabaseValueConvertible, StatementColumnConvertible {
    @inline(__always)
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        if let bytes = sqlite3_column_blob(sqliteStatement, index) {
            self.init(bytes: bytes, count: Int(sqlite3_column_bytes(sqliteStatement, index)))
        } else {
            self.init()
        }
    }

    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .blob(self))
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Data? {
        switch dbValue.storage {
        case .blob(let data): return data
        case .string(let string): return Data(string.utf8)
        default: return nil
        }
    }
}

// MARK: - UUID

/// Stored as a 16-byte BLOB, as GRDB does. Decodes from such blobs and from
/// the 36-character text form.
extension UUID: DatabaseValueConvertible, StatementColumnConvertible {
    @inline(__always)
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_BLOB:
            guard sqlite3_column_bytes(sqliteStatement, index) == 16,
                  let bytes = sqlite3_column_blob(sqliteStatement, index) else { return nil }
            self.init(uuid: bytes.loadUnaligned(as: uuid_t.self))
        case SQLITE_TEXT:
            self.init(uuidString: String(cString: sqlite3_column_text(sqliteStatement, index)!))
        default:
            return nil
        }
    }

    public var databaseValue: DatabaseValue {
        withUnsafeBytes(of: uuid) { DatabaseValue(storage: .blob(Data($0))) }
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UUID? {
        switch dbValue.storage {
        case .blob(let data) where data.count == 16:
            return data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        case .string(let string):
            return UUID(uuidString: string)
        default:
            return nil
        }
    }
}

// MARK: - Decimal

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

// MARK: - URL

/// Stored as its absolute string.
extension URL: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        absoluteString.databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> URL? {
        String.fromDatabaseValue(dbValue).flatMap { URL(string: $0) }
    }
}
