import Foundation

/// The configuration of database connections.
///
/// ```swift
/// var config = Configuration()
/// config.prepareDatabase { db in
///     try db.usePassphrase(loadPassphrase())
/// }
/// let dbQueue = try DatabaseQueue(path: "/path/to/db.sqlite", configuration: config)
/// ```
///
/// SQLCipher 3.4.1 is SQLite 3.15.2, which always accepts double-quoted
/// string literals (`SQLITE_DBCONFIG_DQS_*` came with SQLite 3.29): there is
/// no setting to refuse them. Quote identifiers with double quotes and
/// strings with single quotes, or bind values as arguments.
public struct Configuration: Sendable {
    // MARK: - Connection setup

    /// Whether foreign key constraints are enforced. Default: true.
    ///
    /// See <https://www.sqlite.org/foreignkeys.html>.
    public var foreignKeysEnabled = true

    /// Whether connections are read-only. Default: false.
    public var readonly = false

    /// A label for the connections, used in their descriptions (and as the
    /// label of their dispatch queues). Default: nil.
    public var label: String?

    /// Whether the values bound to statements appear in the descriptions of
    /// errors and traces. Default: false, because they may be secrets.
    public var publicStatementArguments = false

    /// Whether SQLite reads a double-quoted string that names no column as
    /// a string literal (an SQLite
    /// [misfeature](https://sqlite.org/quirks.html#double_quoted_string_literals_are_accepted)).
    /// Default: false.
    ///
    /// Only SQLite 3.29 and later can refuse such strings: SQLCipher 3.4.1
    /// (SQLite 3.15.2) always accepts them, whatever this setting, exactly
    /// as GRDB does on an SQLite older than 3.29. Write identifiers in
    /// double quotes and strings in single quotes, and both behaviours agree.
    public var acceptsDoubleQuotedStringLiterals = false

    /// How a connection reacts when it finds the database locked by another
    /// connection. Default: ``Database/BusyMode/immediateError``.
    ///
    /// See <https://www.sqlite.org/c3ref/busy_timeout.html>.
    public var busyMode: Database.BusyMode = .immediateError

    /// The journal mode of a ``DatabaseQueue``. Default: SQLite's own
    /// (`DELETE`). A ``DatabasePool`` always uses WAL.
    public var journalMode: JournalModeConfiguration = .default

    /// The transaction kind of ``Database/inTransaction(_:_:)`` when none is
    /// given. Default: deferred. (``DatabaseWriter/write(_:)`` always starts
    /// an immediate transaction, so that it never fails half-way when it
    /// upgrades its lock.)
    public var defaultTransactionKind: Database.TransactionKind = .deferred

    /// The clock of ``Database/transactionDate``. Default: the system clock.
    public var transactionClock: any TransactionClock = .default

    /// Whether a write access may end with a transaction left open.
    /// Default: false: such an access throws, and the transaction is
    /// rolled back.
    public var allowsUnsafeTransactions = false

    /// Completes the schema that SQLite reports (the primary keys of
    /// views). Default: nil.
    public var schemaSource: (any DatabaseSchemaSource)?

    // MARK: - Pools

    /// The maximum number of reader connections of a ``DatabasePool``.
    /// Default: 5.
    public var maximumReaderCount = 5

    /// Whether a ``DatabasePool`` keeps its idle readers open. Default:
    /// true. When false, readers close after each read, and each read pays
    /// for opening a connection (and deriving the key).
    public var persistentReadOnlyConnections = true

    // MARK: - Dispatch queues

    /// The quality of service of the connections' dispatch queues.
    /// Default: `.userInitiated`.
    public var qos: DispatchQoS = .userInitiated

    /// The quality of service of the reader connections.
    public var readQoS: DispatchQoS {
        targetQueue?.qos ?? qos
    }

    /// The quality of service of the writer connection.
    public var writeQoS: DispatchQoS {
        writeTargetQueue?.qos ?? targetQueue?.qos ?? qos
    }

    /// The target queue of the connections' dispatch queues (of the
    /// readers only, when ``writeTargetQueue`` is set). Default: nil.
    public var targetQueue: DispatchQueue?

    /// The target queue of the writer connection's dispatch queue.
    /// Default: nil (``targetQueue``).
    public var writeTargetQueue: DispatchQueue?

    // MARK: - prepareDatabase

    typealias Preparation = @Sendable (Database) throws -> Void
    private(set) var preparations: [Preparation] = []

    /// Adds a function that runs on every new connection, before anything
    /// else reads the database: the place to provide the passphrase.
    ///
    /// Functions run in the order they were added.
    ///
    /// ```swift
    /// config.prepareDatabase { db in
    ///     try db.usePassphrase(try loadPassphrase())
    /// }
    /// ```
    public mutating func prepareDatabase(_ setup: @escaping @Sendable (Database) throws -> Void) {
        preparations.append(setup)
    }

    public init() {}

    /// The journal mode of a ``DatabaseQueue``.
    public enum JournalModeConfiguration: Sendable {
        /// SQLite's default journal mode (`DELETE`), or the one already set
        /// on the file.
        case `default`
        /// WAL mode. See <https://www.sqlite.org/wal.html>.
        case wal
    }
}
