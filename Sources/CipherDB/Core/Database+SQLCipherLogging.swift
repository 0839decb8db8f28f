import Foundation

extension Database {
    /// Where SQLCipher writes its log: see
    /// ``Database/enableCipherLogging(logLevel:target:)``.
    public struct SQLCipherLogTarget: Sendable {
        public var rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public static let stdout = Self(rawValue: "stdout")
        public static let stderr = Self(rawValue: "stderr")
        /// The system log (Apple platforms; standard error elsewhere).
        public static let device = Self(rawValue: "device")

        /// A file.
        public static func file(_ path: String) -> Self { Self(rawValue: path) }
    }

    /// How much SQLCipher logs.
    public struct SQLCipherLogLevel: RawRepresentable, Sendable {
        public var rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public static let none = Self(rawValue: "NONE")
        public static let error = Self(rawValue: "ERROR")
        public static let warn = Self(rawValue: "WARN")
        public static let info = Self(rawValue: "INFO")
        public static let debug = Self(rawValue: "DEBUG")
        public static let trace = Self(rawValue: "TRACE")
    }

    /// Turns on SQLCipher's log (`PRAGMA cipher_log` and
    /// `cipher_log_level`), which needs SQLCipher 4. With an older
    /// SQLCipher, such as Debian's 3.4.1, it throws: SQLite ignores the
    /// pragmas it does not know, and the log would silently stay off.
    ///
    /// ```swift
    /// try db.enableCipherLogging(logLevel: .error, target: .file("/tmp/sqlcipher.log"))
    /// ```
    public func enableCipherLogging(logLevel: SQLCipherLogLevel = .debug, target: SQLCipherLogTarget = .device) throws {
        let version = try cipherVersion
        guard "4".compare(version, options: .numeric) != .orderedDescending else {
            throw DatabaseError(
                resultCode: .SQLITE_ERROR,
                message: "SQLCipher \(version) has no log (PRAGMA cipher_log needs SQLCipher 4): nothing was enabled")
        }
        // Pragmas take no arguments: the values are written as literals.
        try execute(sql: "PRAGMA cipher_log = " + target.rawValue.databaseValue.sqlLiteral)
        try execute(sql: "PRAGMA cipher_log_level = " + logLevel.rawValue.uppercased().databaseValue.sqlLiteral)
    }
}
