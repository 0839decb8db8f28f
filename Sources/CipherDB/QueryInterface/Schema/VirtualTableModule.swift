/// A module of virtual tables that the schema builder creates:
/// ``FTS3``, ``FTS4``.
///
/// ```swift
/// try db.create(virtualTable: "book", using: FTS4()) { t in
///     t.column("title")
///     t.column("body")
/// }
/// ```
///
/// See <https://www.sqlite.org/vtab.html>.
public protocol VirtualTableModule {
    /// What the body of ``Database/create(virtualTable:options:using:_:)``
    /// configures.
    associatedtype TableDefinition

    /// The name of the module in `CREATE VIRTUAL TABLE … USING module`.
    var moduleName: String { get }

    /// A new definition, for a table created with `configuration`.
    func makeTableDefinition(configuration: VirtualTableConfiguration) -> TableDefinition

    /// The arguments of the module in `USING module(arguments)`; none
    /// writes `USING module`.
    func moduleArguments(for definition: TableDefinition, in db: Database) throws -> [String]

    /// Called after the table is created, in the same savepoint: what the
    /// module needs beside the table (triggers, a first content).
    func database(_ db: Database, didCreate tableName: String, using definition: TableDefinition) throws
}

/// How a virtual table is created: the options of
/// ``Database/create(virtualTable:options:using:_:)``.
public struct VirtualTableConfiguration: Sendable {
    var ifNotExists: Bool
    var temporary: Bool
}

/// The options of ``Database/create(virtualTable:options:using:_:)``.
public struct VirtualTableOptions: OptionSet, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `CREATE VIRTUAL TABLE IF NOT EXISTS`.
    public static let ifNotExists = VirtualTableOptions(rawValue: 1 << 0)
    /// A table of the `temp` schema, dropped when the connection closes.
    public static let temporary = VirtualTableOptions(rawValue: 1 << 1)
}

extension Database {
    /// Creates a virtual table of a module given by its SQL:
    /// `try db.create(virtualTable: "vocabulary", using: "fts4aux(book)")`.
    ///
    /// See <https://www.sqlite.org/lang_createvtab.html>.
    public func create(virtualTable name: String, options: VirtualTableOptions = [], using module: String) throws {
        try execute(sql: Self.createVirtualTableSQL(name, options: options, module: module))
    }

    /// Creates a virtual table of `module`, which `body` configures; what
    /// the module adds beside the table (the triggers of an FTS4 table
    /// synchronized with another) is created in the same savepoint.
    ///
    /// ```swift
    /// try db.create(virtualTable: "book", using: FTS4()) { t in
    ///     t.tokenizer = .unicode61()
    ///     t.column("title")
    /// }
    /// ```
    public func create<Module: VirtualTableModule>(
        virtualTable name: String,
        options: VirtualTableOptions = [],
        using module: Module,
        _ body: ((Module.TableDefinition) throws -> Void)? = nil
    ) throws {
        let configuration = VirtualTableConfiguration(ifNotExists: options.contains(.ifNotExists), temporary: options.contains(.temporary))
        let definition = module.makeTableDefinition(configuration: configuration)
        try body?(definition)
        let arguments = try module.moduleArguments(for: definition, in: self)
        let sql = Self.createVirtualTableSQL(
            name, options: options, module: arguments.isEmpty ? module.moduleName : "\(module.moduleName)(\(arguments.joined(separator: ", ")))")
        try inSavepoint {
            try execute(sql: sql)
            try module.database(self, didCreate: name, using: definition)
            return .commit
        }
    }

    /// Creates a virtual table, `IF NOT EXISTS` if `ifNotExists`.
    @_disfavoredOverload
    public func create(virtualTable name: String, ifNotExists: Bool = false, using module: String) throws {
        try create(virtualTable: name, options: ifNotExists ? .ifNotExists : [], using: module)
    }

    /// Creates a virtual table of `module`, `IF NOT EXISTS` if `ifNotExists`.
    @_disfavoredOverload
    public func create<Module: VirtualTableModule>(
        virtualTable name: String,
        ifNotExists: Bool = false,
        using module: Module,
        _ body: ((Module.TableDefinition) throws -> Void)? = nil
    ) throws {
        try create(virtualTable: name, options: ifNotExists ? .ifNotExists : [], using: module, body)
    }

    private static func createVirtualTableSQL(_ name: String, options: VirtualTableOptions, module: String) -> String {
        var sql = "CREATE VIRTUAL TABLE "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        if options.contains(.temporary) { sql += "temp." }
        return sql + name.quotedDatabaseIdentifier + " USING " + module
    }
}
