import CSQLCipher
import Foundation

extension Database {
    /// What ``trace(options:_:)`` reports.
    public struct TracingOptions: OptionSet, Sendable {
        public let rawValue: CInt
        public init(rawValue: CInt) { self.rawValue = rawValue }

        /// Each statement as it starts.
        public static let statement = TracingOptions(rawValue: CInt(SQLITE_TRACE_STMT))
        /// Each statement as it ends, with its duration.
        public static let profile = TracingOptions(rawValue: CInt(SQLITE_TRACE_PROFILE))
    }

    /// An event reported by ``trace(options:_:)``.
    public enum TraceEvent: CustomStringConvertible {
        /// Information about a traced statement.
        public struct Statement: CustomStringConvertible {
            let sqliteStatement: SQLiteStatement
            let publicStatementArguments: Bool
            /// For statements run by triggers, the trigger comment that
            /// SQLite reports instead of the statement.
            let unexpandedSQL: String?

            /// The SQL of the statement, with parameters (`?`) instead of
            /// values, and passphrases redacted.
            public var sql: String {
                SQLSecrets.redacted(unexpandedSQL ?? CipherDB.Statement.trimmedSQL(String(cString: sqlite3_sql(sqliteStatement))))
            }

            /// The SQL with the bound values in place of the parameters.
            /// It shows values that may be secrets: see ``description``.
            public var expandedSQL: String {
                if let unexpandedSQL { return SQLSecrets.redacted(unexpandedSQL) }
                guard let cString = sqlite3_expanded_sql(sqliteStatement) else { return sql }
                defer { sqlite3_free(cString) }
                return SQLSecrets.redacted(CipherDB.Statement.trimmedSQL(String(cString: cString)))
            }

            /// ``sql``, or ``expandedSQL`` when the configuration makes
            /// statement arguments public: safe to log by default.
            public var description: String {
                publicStatementArguments ? expandedSQL : sql
            }

            /// ``expandedSQL``, whatever the configuration: for debugging only.
            public var expandedDescription: String { expandedSQL }
        }

        /// A statement starts.
        case statement(Statement)
        /// A statement ended after `duration` seconds.
        case profile(statement: Statement, duration: TimeInterval)

        public var description: String {
            switch self {
            case .statement(let statement):
                return statement.description
            case let .profile(statement, duration):
                return String(format: "%.3fs %@", duration, statement.description)
            }
        }

        /// Like ``description``, with the bound values always shown.
        public var expandedDescription: String {
            switch self {
            case .statement(let statement):
                return statement.expandedDescription
            case let .profile(statement, duration):
                return String(format: "%.3fs %@", duration, statement.expandedDescription)
            }
        }
    }

    /// Reports the statements this connection runs, or stops reporting
    /// when `trace` is nil.
    ///
    /// ```swift
    /// config.prepareDatabase { db in
    ///     db.trace { print($0) } // bound values hidden by default
    /// }
    /// ```
    ///
    /// See <https://www.sqlite.org/c3ref/trace_v2.html>.
    public func trace(options: TracingOptions = .statement, _ trace: ((TraceEvent) -> Void)? = nil) {
        traceHandler = trace
        guard trace != nil, !options.isEmpty else {
            sqlite3_trace_v2(handle, 0, nil, nil)
            return
        }
        // The connection outlives its trace registration: it unregisters
        // when it closes.
        sqlite3_trace_v2(handle, UInt32(options.rawValue), { mask, context, p, x in
            let db = Unmanaged<Database>.fromOpaque(context!).takeUnretainedValue()
            db.reportTrace(mask: CInt(mask), p: p, x: x)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func reportTrace(mask: CInt, p: UnsafeMutableRawPointer?, x: UnsafeMutableRawPointer?) {
        guard let traceHandler, let p, !hidesStatementsFromTrace else { return }
        let sqliteStatement = OpaquePointer(p)
        switch mask {
        case CInt(SQLITE_TRACE_STMT):
            // X is the SQL text, or a "-- trigger" comment for statements
            // run by triggers.
            var unexpandedSQL: String?
            if let x {
                let text = String(cString: x.assumingMemoryBound(to: CChar.self))
                if text.hasPrefix("--") { unexpandedSQL = text }
            }
            traceHandler(.statement(TraceEvent.Statement(
                sqliteStatement: sqliteStatement,
                publicStatementArguments: configuration.publicStatementArguments,
                unexpandedSQL: unexpandedSQL)))
        case CInt(SQLITE_TRACE_PROFILE):
            let nanoseconds = x?.assumingMemoryBound(to: Int64.self).pointee ?? 0
            traceHandler(.profile(
                statement: TraceEvent.Statement(
                    sqliteStatement: sqliteStatement,
                    publicStatementArguments: configuration.publicStatementArguments,
                    unexpandedSQL: nil),
                duration: TimeInterval(nanoseconds) / 1_000_000_000))
        default:
            break
        }
    }
}
