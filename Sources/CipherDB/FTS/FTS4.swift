/// The FTS4 module of full-text search: FTS3, with columns that are not
/// indexed, a language id, external content (a table it indexes, kept in
/// sync by triggers), compression and prefix indexes.
///
/// ```swift
/// try db.create(virtualTable: "book_ft", using: FTS4()) { t in
///     t.synchronize(withTable: "book")
///     t.tokenizer = .unicode61()
///     t.column("title")
///     t.column("body")
/// }
/// ```
///
/// See <https://www.sqlite.org/fts3.html#fts4_options>.
public struct FTS4: Sendable {
    public init() {}
}

extension FTS4: VirtualTableModule {
    public var moduleName: String { "fts4" }

    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS4TableDefinition {
        FTS4TableDefinition(configuration: configuration)
    }

    public func moduleArguments(for definition: FTS4TableDefinition, in db: Database) -> [String] {
        var arguments: [String] = []
        for column in definition.columns {
            if column.isLanguageId {
                arguments.append("languageid=\"\(column.name)\"")
            } else {
                arguments.append(column.name)
                if !column.isIndexed { arguments.append("notindexed=\(column.name)") }
            }
        }
        if let tokenizer = definition.tokenizer { arguments.append("tokenize=\(tokenizer.sql)") }
        if let content = definition.content { arguments.append("content=\"\(content)\"") }
        if let compress = definition.compress { arguments.append("compress=\"\(compress)\"") }
        if let uncompress = definition.uncompress { arguments.append("uncompress=\"\(uncompress)\"") }
        if let matchinfo = definition.matchinfo { arguments.append("matchinfo=\"\(matchinfo)\"") }
        if let prefixes = definition.prefixes { arguments.append("prefix=\"\(prefixes.sorted().map(String.init).joined(separator: ","))\"") }
        return arguments
    }

    /// For a table synchronized with its content table: the triggers that
    /// keep it so, then its index built from the rows already there.
    public func database(_ db: Database, didCreate tableName: String, using definition: FTS4TableDefinition) throws {
        guard case .synchronized(let contentTable) = definition.contentMode else { return }
        guard !definition.configuration.temporary else {
            // SQLite cannot rebuild the index of a temporary table: GRDB
            // stops the program, CipherDB says so.
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a temporary FTS4 table cannot be synchronized with \(contentTable)")
        }
        let rowID = try db.primaryKey(contentTable).rowIDColumn ?? "rowid"
        let ftsTable = tableName.quotedDatabaseIdentifier
        let content = contentTable.quotedDatabaseIdentifier
        let columns = definition.columns.map(\.name)
        let ftsColumns = (["docid"] + columns).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let newValues = ([rowID] + columns).map { "new.\($0.quotedDatabaseIdentifier)" }.joined(separator: ", ")
        let oldRowID = "old.\(rowID.quotedDatabaseIdentifier)"
        let ifNotExists = definition.configuration.ifNotExists ? "IF NOT EXISTS " : ""
        func trigger(_ suffix: String) -> String { "CREATE TRIGGER \(ifNotExists)\(FTS4.triggerName(tableName, suffix))" }
        // https://www.sqlite.org/fts3.html#_external_content_fts4_tables_
        try db.execute(sql: """
            \(trigger("bu")) BEFORE UPDATE ON \(content) BEGIN
                DELETE FROM \(ftsTable) WHERE docid=\(oldRowID);
            END;
            \(trigger("bd")) BEFORE DELETE ON \(content) BEGIN
                DELETE FROM \(ftsTable) WHERE docid=\(oldRowID);
            END;
            \(trigger("au")) AFTER UPDATE ON \(content) BEGIN
                INSERT INTO \(ftsTable)(\(ftsColumns)) VALUES(\(newValues));
            END;
            \(trigger("ai")) AFTER INSERT ON \(content) BEGIN
                INSERT INTO \(ftsTable)(\(ftsColumns)) VALUES(\(newValues));
            END;
            """)
        try db.execute(sql: "INSERT INTO \(ftsTable)(\(ftsTable)) VALUES('rebuild')")
    }

    /// `"__table_bu"`: a synchronization trigger, by what it follows.
    fileprivate static func triggerName(_ tableName: String, _ suffix: String) -> String {
        "__\(tableName)_\(suffix)".quotedDatabaseIdentifier
    }
}

/// The columns and options of an FTS4 table, which the body of
/// ``Database/create(virtualTable:options:using:_:)`` sets.
public final class FTS4TableDefinition {
    enum ContentMode {
        /// `content="table"` or none, as set.
        case raw(content: String?)
        /// `content="table"`, kept in sync by triggers.
        case synchronized(contentTable: String)
    }

    fileprivate let configuration: VirtualTableConfiguration
    fileprivate var columns: [FTS4ColumnDefinition] = []
    fileprivate var contentMode = ContentMode.raw(content: nil)

    /// The tokenizer: SQLite's `simple` if nil.
    public var tokenizer: FTS3TokenizerDescriptor?
    /// The `content` option: `""` for a contentless table, a table name
    /// for external content (that ``synchronize(withTable:)`` keeps in sync).
    public var content: String? {
        get {
            switch contentMode {
            case .raw(let content): content
            case .synchronized(let contentTable): contentTable
            }
        }
        set { contentMode = .raw(content: newValue) }
    }
    /// The `compress` option: an SQL function of one argument.
    public var compress: String?
    /// The `uncompress` option: the inverse of ``compress``.
    public var uncompress: String?
    /// The `matchinfo` option: `"fts3"` for the smaller FTS3 statistics.
    public var matchinfo: String?
    /// The `prefix` option: prefix lengths that get an index of their own.
    public var prefixes: Set<Int>?

    init(configuration: VirtualTableConfiguration) {
        self.configuration = configuration
    }

    /// Adds a column (FTS4 columns have no type).
    @discardableResult
    public func column(_ name: String) -> FTS4ColumnDefinition {
        let column = FTS4ColumnDefinition(name: name)
        columns.append(column)
        return column
    }

    /// Indexes the rows of `tableName`, whose columns have the names of
    /// this table's, and keeps the index in sync with triggers on it.
    ///
    /// ```swift
    /// try db.create(virtualTable: "book_ft", using: FTS4()) { t in
    ///     t.synchronize(withTable: "book")
    ///     t.column("title")
    /// }
    /// ```
    public func synchronize(withTable tableName: String) {
        contentMode = .synchronized(contentTable: tableName)
    }
}

// A mutable class that the body of `create(virtualTable:)` configures on
// the connection's thread: never shared.
@available(*, unavailable)
extension FTS4TableDefinition: Sendable {}

/// A column of an FTS4 table.
public final class FTS4ColumnDefinition {
    fileprivate let name: String
    fileprivate var isIndexed = true
    fileprivate var isLanguageId = false

    init(name: String) {
        self.name = name
    }

    /// The `notindexed` option: the column is stored, never matched.
    @discardableResult
    public func notIndexed() -> Self {
        isIndexed = false
        return self
    }

    /// The `languageid` option: the column holds the language of its row,
    /// which a tokenizer may use.
    @discardableResult
    public func asLanguageId() -> Self {
        isLanguageId = true
        return self
    }
}

// A mutable class that the body of `create(virtualTable:)` configures on
// the connection's thread: never shared.
@available(*, unavailable)
extension FTS4ColumnDefinition: Sendable {}

extension Database {
    /// Drops the triggers that keep the FTS4 table `tableName` in sync
    /// with its content table (``FTS4TableDefinition/synchronize(withTable:)``):
    /// after the FTS4 table itself is dropped, so that its content table
    /// can be written again.
    public func dropFTS4SynchronizationTriggers(forTable tableName: String) throws {
        try execute(sql: ["bu", "bd", "au", "ai"].map { "DROP TRIGGER IF EXISTS \(FTS4.triggerName(tableName, $0))" }.joined(separator: ";\n"))
    }
}
