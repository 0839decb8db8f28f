import CSQLCipher
import Foundation

/// A value stored in a database table: NULL, an integer, a double, a string
/// or a blob.
///
/// ```swift
/// let dbValue = try DatabaseValue.fetchOne(db, sql: "SELECT name FROM player")!
/// if let name = String.fromDatabaseValue(dbValue) { ... }
/// ```
///
/// See <https://www.sqlite.org/datatype3.html>.
public struct DatabaseValue: Hashable, Sendable {
    /// The SQLite storage class and the value it holds.
    public enum Storage: Hashable, Sendable {
        case null
        case int64(Int64)
        case double(Double)
        case string(String)
        case blob(Data)

        /// The Swift value of the storage class (`Int64`, `Double`,
        /// `String`, `Data`), or nil for NULL.
        public var value: (any DatabaseValueConvertible)? {
            switch self {
            case .null: return nil
            case .int64(let int64): return int64
            case .double(let double): return double
            case .string(let string): return string
            case .blob(let data): return data
            }
        }
    }

    public let storage: Storage

    /// The NULL database value.
    public static let null = DatabaseValue(storage: .null)

    /// Whether the value is NULL.
    @inline(__always)
    public var isNull: Bool {
        if case .null = storage { return true }
        return false
    }

    init(storage: Storage) {
        self.storage = storage
    }

    /// Creates a database value from any value convertible to the database.
    public init(value: some DatabaseValueConvertible) {
        self = value.databaseValue
    }

    /// Reads column `index` of the current row of a statement.
    @inline(__always)
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_NULL:
            storage = .null
        case SQLITE_INTEGER:
            storage = .int64(sqlite3_column_int64(sqliteStatement, index))
        case SQLITE_FLOAT:
            storage = .double(sqlite3_column_double(sqliteStatement, index))
        case SQLITE_TEXT:
            storage = .string(String(cString: sqlite3_column_text(sqliteStatement, index)!))
        case SQLITE_BLOB:
            if let bytes = sqlite3_column_blob(sqliteStatement, index) {
                storage = .blob(Data(bytes: bytes, count: Int(sqlite3_column_bytes(sqliteStatement, index))))
            } else {
                storage = .blob(Data())
            }
        case let type:
            fatalError("Unexpected SQLite column type: \(type)")
        }
    }

    /// Reads an argument of an SQL function.
    init(sqliteValue: OpaquePointer) {
        switch sqlite3_value_type(sqliteValue) {
        case SQLITE_NULL:
            storage = .null
        case SQLITE_INTEGER:
            storage = .int64(sqlite3_value_int64(sqliteValue))
        case SQLITE_FLOAT:
            storage = .double(sqlite3_value_double(sqliteValue))
        case SQLITE_TEXT:
            storage = .string(String(cString: sqlite3_value_text(sqliteValue)!))
        case SQLITE_BLOB:
            if let bytes = sqlite3_value_blob(sqliteValue) {
                storage = .blob(Data(bytes: bytes, count: Int(sqlite3_value_bytes(sqliteValue))))
            } else {
                storage = .blob(Data())
            }
        case let type:
            fatalError("Unexpected SQLite value type: \(type)")
        }
    }

    /// Binds the value to parameter `index` (1-based) of a statement, and
    /// returns the code of `sqlite3_bind_*`.
    @inline(__always)
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        switch storage {
        case .null:
            return sqlite3_bind_null(sqliteStatement, index)
        case .int64(let int64):
            return sqlite3_bind_int64(sqliteStatement, index, int64)
        case .double(let double):
            return sqlite3_bind_double(sqliteStatement, index, double)
        case .string(let string):
            return sqlite3_bind_text(sqliteStatement, index, string, -1, SQLITE_TRANSIENT)
        case .blob(let data):
            return data.withUnsafeBytes { buffer in
                // A non-nil pointer, even for an empty blob, so that it is not bound as NULL.
                sqlite3_bind_blob(sqliteStatement, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                                  CInt(buffer.count), SQLITE_TRANSIENT)
            }
        }
    }

    /// Sets the result of an SQL function.
    func setResult(of sqliteContext: OpaquePointer) {
        switch storage {
        case .null:
            sqlite3_result_null(sqliteContext)
        case .int64(let int64):
            sqlite3_result_int64(sqliteContext, int64)
        case .double(let double):
            sqlite3_result_double(sqliteContext, double)
        case .string(let string):
            sqlite3_result_text(sqliteContext, string, -1, SQLITE_TRANSIENT)
        case .blob(let data):
            data.withUnsafeBytes { buffer in
                sqlite3_result_blob(sqliteContext, buffer.baseAddress, CInt(buffer.count), SQLITE_TRANSIENT)
            }
        }
    }
}

/// SQLite copies bound text and blobs: the Swift buffers need not outlive
/// the call.
let SQLITE_TRANSIENT = cipherdb_transient()

// MARK: - Equality

extension DatabaseValue {
    /// Whether two values are equal. An integer equals a double of the same
    /// value (`1 == 1.0`), as in SQL; NULL equals NULL.
    public static func == (lhs: DatabaseValue, rhs: DatabaseValue) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.null, .null):
            return true
        case let (.int64(lhs), .int64(rhs)):
            return lhs == rhs
        case let (.double(lhs), .double(rhs)):
            return lhs == rhs
        case let (.int64(lhs), .double(rhs)):
            return Int64(exactly: rhs) == lhs
        case let (.double(lhs), .int64(rhs)):
            return Int64(exactly: lhs) == rhs
        case let (.string(lhs), .string(rhs)):
            return lhs == rhs
        case let (.blob(lhs), .blob(rhs)):
            return lhs == rhs
        default:
            return false
        }
    }

    /// Equal values have equal hashes: an integer hashes as the double of
    /// the same value.
    public func hash(into hasher: inout Hasher) {
        switch storage {
        case .null:
            hasher.combine(0)
        case .int64(let int64):
            hasher.combine(Double(int64))
        case .double(let double):
            hasher.combine(double)
        case .string(let string):
            hasher.combine(string)
        case .blob(let data):
            hasher.combine(data)
        }
    }
}

extension DatabaseValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseValue? { dbValue }
}

extension DatabaseValue: StatementColumnConvertible {
    /// Any value, NULL included: `row[0] as DatabaseValue` is `.null` for
    /// NULL, and `DatabaseValue.fetchOne` returns `.null` (nil only when
    /// there is no row), as in GRDB.
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> DatabaseValue? {
        DatabaseValue(sqliteStatement: sqliteStatement, index: index)
    }
}

extension DatabaseValue: CustomStringConvertible {
    /// The value, for logs and debugging: `NULL`, `1`, `1.5`, `"Arthur"`
    /// (quoted and escaped as a Swift string), `Data(3 bytes)`.
    public var description: String {
        switch storage {
        case .null:
            return "NULL"
        case .int64(let int64):
            return String(int64)
        case .double(let double):
            return String(double)
        case .string(let string):
            return String(reflecting: string)
        case .blob(let data):
            return "Data(\(data.description))"
        }
    }

    /// The value as an SQL literal, such as `NULL`, `1`, `'Arthur'` or
    /// `X'2A'`: for SQL that can not hold arguments (column defaults).
    var sqlLiteral: String {
        switch storage {
        case .null:
            return "NULL"
        case .int64(let int64):
            return String(int64)
        case .double(let double):
            return String(double)
        case .string(let string):
            return "'" + string.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data):
            return "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }
}

extension DatabaseValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) {
        self = .null
    }
}
