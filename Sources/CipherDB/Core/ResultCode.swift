import CSQLCipher

/// A SQLite result code, primary or extended.
///
/// A primary code matches every extended code that refines it, so that
/// `case .SQLITE_CONSTRAINT:` catches unique and foreign key violations alike:
///
/// ```swift
/// switch error.extendedResultCode {
/// case .SQLITE_CONSTRAINT_FOREIGNKEY: // foreign key only
/// case .SQLITE_CONSTRAINT:            // any other constraint
/// default: break
/// }
/// ```
///
/// See <https://www.sqlite.org/rescode.html>.
public struct ResultCode: RawRepresentable, Hashable, Sendable {
    public let rawValue: CInt

    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// The primary result code (the low 8 bits).
    public var primaryResultCode: ResultCode {
        ResultCode(rawValue: rawValue & 0xFF)
    }

    var isPrimary: Bool { self == primaryResultCode }

    /// A primary pattern matches its extended codes; an extended pattern
    /// matches only itself.
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        pattern.isPrimary ? pattern == code.primaryResultCode : pattern == code
    }

    /// Supports `catch ResultCode.SQLITE_CONSTRAINT`.
    public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return pattern ~= error.extendedResultCode
    }

    // MARK: - Primary result codes

    public static let SQLITE_OK = ResultCode(rawValue: 0)
    public static let SQLITE_ERROR = ResultCode(rawValue: 1)
    public static let SQLITE_INTERNAL = ResultCode(rawValue: 2)
    public static let SQLITE_PERM = ResultCode(rawValue: 3)
    public static let SQLITE_ABORT = ResultCode(rawValue: 4)
    public static let SQLITE_BUSY = ResultCode(rawValue: 5)
    public static let SQLITE_LOCKED = ResultCode(rawValue: 6)
    public static let SQLITE_NOMEM = ResultCode(rawValue: 7)
    public static let SQLITE_READONLY = ResultCode(rawValue: 8)
    public static let SQLITE_INTERRUPT = ResultCode(rawValue: 9)
    public static let SQLITE_IOERR = ResultCode(rawValue: 10)
    public static let SQLITE_CORRUPT = ResultCode(rawValue: 11)
    public static let SQLITE_NOTFOUND = ResultCode(rawValue: 12)
    public static let SQLITE_FULL = ResultCode(rawValue: 13)
    public static let SQLITE_CANTOPEN = ResultCode(rawValue: 14)
    public static let SQLITE_PROTOCOL = ResultCode(rawValue: 15)
    public static let SQLITE_EMPTY = ResultCode(rawValue: 16)
    public static let SQLITE_SCHEMA = ResultCode(rawValue: 17)
    public static let SQLITE_TOOBIG = ResultCode(rawValue: 18)
    public static let SQLITE_CONSTRAINT = ResultCode(rawValue: 19)
    public static let SQLITE_MISMATCH = ResultCode(rawValue: 20)
    public static let SQLITE_MISUSE = ResultCode(rawValue: 21)
    public static let SQLITE_NOLFS = ResultCode(rawValue: 22)
    public static let SQLITE_AUTH = ResultCode(rawValue: 23)
    public static let SQLITE_FORMAT = ResultCode(rawValue: 24)
    public static let SQLITE_RANGE = ResultCode(rawValue: 25)
    public static let SQLITE_NOTADB = ResultCode(rawValue: 26)
    public static let SQLITE_NOTICE = ResultCode(rawValue: 27)
    public static let SQLITE_WARNING = ResultCode(rawValue: 28)
    public static let SQLITE_ROW = ResultCode(rawValue: 100)
    public static let SQLITE_DONE = ResultCode(rawValue: 101)

    // MARK: - Extended result codes known to SQLite 3.15.2

    public static let SQLITE_IOERR_READ = ResultCode(rawValue: 10 | (1 << 8))
    public static let SQLITE_IOERR_SHORT_READ = ResultCode(rawValue: 10 | (2 << 8))
    public static let SQLITE_IOERR_WRITE = ResultCode(rawValue: 10 | (3 << 8))
    public static let SQLITE_IOERR_FSYNC = ResultCode(rawValue: 10 | (4 << 8))
    public static let SQLITE_LOCKED_SHAREDCACHE = ResultCode(rawValue: 6 | (1 << 8))
    public static let SQLITE_BUSY_RECOVERY = ResultCode(rawValue: 5 | (1 << 8))
    public static let SQLITE_BUSY_SNAPSHOT = ResultCode(rawValue: 5 | (2 << 8))
    public static let SQLITE_CANTOPEN_ISDIR = ResultCode(rawValue: 14 | (2 << 8))
    public static let SQLITE_CANTOPEN_FULLPATH = ResultCode(rawValue: 14 | (3 << 8))
    public static let SQLITE_READONLY_RECOVERY = ResultCode(rawValue: 8 | (1 << 8))
    public static let SQLITE_READONLY_CANTLOCK = ResultCode(rawValue: 8 | (2 << 8))
    public static let SQLITE_READONLY_ROLLBACK = ResultCode(rawValue: 8 | (3 << 8))
    public static let SQLITE_READONLY_DBMOVED = ResultCode(rawValue: 8 | (4 << 8))
    public static let SQLITE_ABORT_ROLLBACK = ResultCode(rawValue: 4 | (2 << 8))
    public static let SQLITE_CONSTRAINT_CHECK = ResultCode(rawValue: 19 | (1 << 8))
    public static let SQLITE_CONSTRAINT_COMMITHOOK = ResultCode(rawValue: 19 | (2 << 8))
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode(rawValue: 19 | (3 << 8))
    public static let SQLITE_CONSTRAINT_FUNCTION = ResultCode(rawValue: 19 | (4 << 8))
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode(rawValue: 19 | (5 << 8))
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode(rawValue: 19 | (6 << 8))
    public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode(rawValue: 19 | (7 << 8))
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode(rawValue: 19 | (8 << 8))
    public static let SQLITE_CONSTRAINT_VTAB = ResultCode(rawValue: 19 | (9 << 8))
    public static let SQLITE_CONSTRAINT_ROWID = ResultCode(rawValue: 19 | (10 << 8))
    /// SQLite 3.31: SQLCipher 3.4.1 never returns it.
    public static let SQLITE_CONSTRAINT_PINNED = ResultCode(rawValue: 19 | (11 << 8))
    /// SQLite 3.37, for STRICT tables: SQLCipher 3.4.1 never returns it.
    public static let SQLITE_CONSTRAINT_DATATYPE = ResultCode(rawValue: 19 | (12 << 8))
}

extension ResultCode: CustomStringConvertible {
    /// SQLite's English text for the code, such as "constraint failed".
    var errorString: String {
        String(cString: sqlite3_errstr(rawValue))
    }

    public var description: String {
        "\(rawValue) (\(errorString))"
    }
}
