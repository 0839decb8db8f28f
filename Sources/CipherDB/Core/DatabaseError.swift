import CSQLCipher
import Foundation

/// An error thrown by SQLite, or by CipherDB on misuse of a connection.
///
/// It matches result codes in `catch` clauses:
///
/// ```swift
/// do {
///     try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
/// } catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE {
///     // duplicate id
/// } catch let error as DatabaseError {
///     print(error.message ?? "")
/// }
/// ```
///
/// Its `description` shows the SQL but never the bound arguments, which may
/// be secrets, unless the connection was configured with
/// ``Configuration/publicStatementArguments``.
///
/// See <https://www.sqlite.org/rescode.html>.
public struct DatabaseError: Error, Sendable {
    /// The primary result code.
    public var resultCode: ResultCode { extendedResultCode.primaryResultCode }

    /// The extended result code.
    public let extendedResultCode: ResultCode

    /// The error message.
    public let message: String?

    /// The SQL of the statement that failed, if any.
    public let sql: String?

    /// The arguments of the statement that failed, if any.
    public let arguments: StatementArguments?

    let publicStatementArguments: Bool

    /// What the error likely means, and what to do, when SQLite's message
    /// alone would not tell: in the description, after the message, which
    /// stays SQLite's (as GRDB has it).
    private(set) var explanation: String?

    public init(
        resultCode: ResultCode = .SQLITE_ERROR,
        message: String? = nil,
        sql: String? = nil,
        arguments: StatementArguments? = nil,
        publicStatementArguments: Bool = false)
    {
        self.extendedResultCode = resultCode
        self.message = message ?? resultCode.errorString
        self.sql = sql.map(SQLSecrets.redacted)
        self.arguments = arguments
        self.publicStatementArguments = publicStatementArguments
        self.explanation = nil
    }

    /// The error, with an explanation for its description.
    func explained(_ explanation: String) -> DatabaseError {
        var error = self
        error.explanation = explanation
        return error
    }

    init(resultCode: CInt, message: String? = nil, sql: String? = nil,
         arguments: StatementArguments? = nil, publicStatementArguments: Bool = false)
    {
        self.init(resultCode: ResultCode(rawValue: resultCode), message: message, sql: sql,
                  arguments: arguments, publicStatementArguments: publicStatementArguments)
    }

    /// Supports `catch DatabaseError.SQLITE_CONSTRAINT`-style patterns.
    public static func ~= (pattern: ResultCode, error: DatabaseError) -> Bool {
        pattern ~= error.extendedResultCode
    }

    // MARK: - Errors raised by CipherDB itself

    static func connectionIsClosed() -> DatabaseError {
        DatabaseError(resultCode: .SQLITE_MISUSE, message: "Connection is closed: open a new DatabaseQueue or DatabasePool")
    }

    static func noSuchTable(_ tableName: String) -> DatabaseError {
        DatabaseError(message: "no such table: \(tableName)")
    }

    static func noSuchSchema(_ schemaName: String) -> DatabaseError {
        DatabaseError(message: "no such schema: \(schemaName)")
    }

    static func viewHasNoPrimaryKey(_ viewName: String) -> DatabaseError {
        DatabaseError(message: "database view \(viewName) has no primary key")
    }

    /// A feature of a later SQLite than SQLCipher 3.4.1's:
    /// "generated columns need SQLite 3.31: …".
    static func unavailableInSQLCipher(_ feature: String, since version: String) -> DatabaseError {
        DatabaseError(message: "\(feature) need SQLite \(version): SQLCipher 3.4.1 is SQLite 3.15.2")
    }
}

extension DatabaseError: CustomStringConvertible {
    public var description: String {
        describe(withArguments: publicStatementArguments)
    }

    /// The description, with the bound arguments whatever the
    /// configuration says: it may reveal secrets, so keep it out of logs.
    public var expandedDescription: String {
        describe(withArguments: true)
    }

    private func describe(withArguments: Bool) -> String {
        var description = "SQLite error \(resultCode.rawValue)"
        if let message {
            description += ": \(message)"
        }
        if let explanation {
            description += " (\(explanation))"
        }
        if let sql {
            description += " - while executing `\(Statement.trimmedSQL(sql))`"
        }
        if withArguments, let arguments, !arguments.isEmpty {
            description += " with arguments \(arguments)"
        }
        return description
    }
}

// `localizedDescription` is as safe to log as `description`.
extension DatabaseError: LocalizedError {
    public var errorDescription: String? { description }
}

// MARK: - `catch DatabaseError.SQLITE_XXX`

extension DatabaseError {
    public static let SQLITE_OK = ResultCode.SQLITE_OK
    public static let SQLITE_ERROR = ResultCode.SQLITE_ERROR
    public static let SQLITE_INTERNAL = ResultCode.SQLITE_INTERNAL
    public static let SQLITE_PERM = ResultCode.SQLITE_PERM
    public static let SQLITE_ABORT = ResultCode.SQLITE_ABORT
    public static let SQLITE_BUSY = ResultCode.SQLITE_BUSY
    public static let SQLITE_LOCKED = ResultCode.SQLITE_LOCKED
    public static let SQLITE_NOMEM = ResultCode.SQLITE_NOMEM
    public static let SQLITE_READONLY = ResultCode.SQLITE_READONLY
    public static let SQLITE_INTERRUPT = ResultCode.SQLITE_INTERRUPT
    public static let SQLITE_IOERR = ResultCode.SQLITE_IOERR
    public static let SQLITE_CORRUPT = ResultCode.SQLITE_CORRUPT
    public static let SQLITE_NOTFOUND = ResultCode.SQLITE_NOTFOUND
    public static let SQLITE_FULL = ResultCode.SQLITE_FULL
    public static let SQLITE_CANTOPEN = ResultCode.SQLITE_CANTOPEN
    public static let SQLITE_PROTOCOL = ResultCode.SQLITE_PROTOCOL
    public static let SQLITE_EMPTY = ResultCode.SQLITE_EMPTY
    public static let SQLITE_SCHEMA = ResultCode.SQLITE_SCHEMA
    public static let SQLITE_TOOBIG = ResultCode.SQLITE_TOOBIG
    public static let SQLITE_CONSTRAINT = ResultCode.SQLITE_CONSTRAINT
    public static let SQLITE_MISMATCH = ResultCode.SQLITE_MISMATCH
    public static let SQLITE_MISUSE = ResultCode.SQLITE_MISUSE
    public static let SQLITE_NOLFS = ResultCode.SQLITE_NOLFS
    public static let SQLITE_AUTH = ResultCode.SQLITE_AUTH
    public static let SQLITE_FORMAT = ResultCode.SQLITE_FORMAT
    public static let SQLITE_RANGE = ResultCode.SQLITE_RANGE
    public static let SQLITE_NOTADB = ResultCode.SQLITE_NOTADB
    public static let SQLITE_NOTICE = ResultCode.SQLITE_NOTICE
    public static let SQLITE_WARNING = ResultCode.SQLITE_WARNING
    public static let SQLITE_ROW = ResultCode.SQLITE_ROW
    public static let SQLITE_DONE = ResultCode.SQLITE_DONE
    public static let SQLITE_BUSY_SNAPSHOT = ResultCode.SQLITE_BUSY_SNAPSHOT
    public static let SQLITE_READONLY_DBMOVED = ResultCode.SQLITE_READONLY_DBMOVED
    public static let SQLITE_CONSTRAINT_CHECK = ResultCode.SQLITE_CONSTRAINT_CHECK
    public static let SQLITE_CONSTRAINT_COMMITHOOK = ResultCode.SQLITE_CONSTRAINT_COMMITHOOK
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY
    public static let SQLITE_CONSTRAINT_FUNCTION = ResultCode.SQLITE_CONSTRAINT_FUNCTION
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode.SQLITE_CONSTRAINT_NOTNULL
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode.SQLITE_CONSTRAINT_PRIMARYKEY
    public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode.SQLITE_CONSTRAINT_TRIGGER
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode.SQLITE_CONSTRAINT_UNIQUE
    public static let SQLITE_CONSTRAINT_VTAB = ResultCode.SQLITE_CONSTRAINT_VTAB
    public static let SQLITE_CONSTRAINT_ROWID = ResultCode.SQLITE_CONSTRAINT_ROWID
    public static let SQLITE_CONSTRAINT_PINNED = ResultCode.SQLITE_CONSTRAINT_PINNED
    public static let SQLITE_CONSTRAINT_DATATYPE = ResultCode.SQLITE_CONSTRAINT_DATATYPE
}
