import CSQLCipher
import Synchronization

extension Database {
    /// A function that receives SQLite's error log: see ``logError``.
    public typealias LogErrorFunction = @Sendable (_ resultCode: ResultCode, _ message: String) -> Void

    /// Receives SQLite's error log: the errors and warnings that SQLite
    /// reports beyond the failing call (a statement that could not compile,
    /// a schema change that forced a statement to be prepared again, a
    /// file that was recovered). Default: nil.
    ///
    /// ```swift
    /// Database.logError = { resultCode, message in
    ///     print("SQLite error \(resultCode): \(message)")
    /// }
    /// ```
    ///
    /// Unlike GRDB, where it must be set before the first connection is
    /// opened, it can be set at any time: CipherDB gives SQLite its log
    /// callback before the first connection, once, and the callback calls
    /// the function of the moment. The messages hold SQL text, never the
    /// values of statement arguments.
    ///
    /// See <https://www.sqlite.org/errlog.html>.
    public static var logError: LogErrorFunction? {
        get { errorLogFunction.withLock { $0 } }
        set {
            precondition(configureSQLiteOnce, "Database.logError: other code initialized SQLite before CipherDB's first connection, and SQLite 3.15.2 then accepts no error log")
            errorLogFunction.withLock { $0 = newValue }
        }
    }

    private static let errorLogFunction = Mutex<LogErrorFunction?>(nil)

    /// Gives SQLite the callback of ``logError``, and returns whether SQLite
    /// took it. SQLite 3.15.2 takes it only before it is initialized: it is
    /// called before the first connection opens.
    static func registerErrorLog() -> Bool {
        let code = cipherdb_config_log({ _, code, message in
            guard let message, let logError = Database.logError else { return }
            logError(ResultCode(rawValue: code), String(cString: message))
        }, nil)
        return code == SQLITE_OK
    }
}
