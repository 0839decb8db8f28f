import CSQLCipher
import Foundation

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
