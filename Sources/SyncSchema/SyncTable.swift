/// A synced table: its name, its primary key (a UUID made on the device),
/// its columns and what it does with conflicts.
///
/// ```swift
/// let notebook = SyncTable(name: "notebook", primaryKey: "id", conflicts: .serverWins, columns: [
///     SyncColumn(name: "id", type: .uuid, isRequired: true),
///     SyncColumn(name: "name", type: .text, isRequired: true, isTrimmed: true, maximumLength: 100),
/// ])
/// ```
public struct SyncTable: Sendable, Equatable {
    public let name: String
    /// The primary key's column: a required UUID.
    public let primaryKey: String
    public let conflicts: SyncConflictPolicy
    public let columns: [SyncColumn]
    /// Who reads and writes its rows on a server that knows its users;
    /// nil: none declared, which such a server refuses.
    public let access: SyncTableAccess?
    /// Whether its rows are sealed end to end (`"endToEnd": true`, format
    /// 3): the server stores and serves, besides the primary key and the
    /// group column, one sealed value of the other columns
    /// (``serverView``), which it has no key to open.
    public let isEndToEnd: Bool

    /// A table; ``SyncSchema/init(tables:)`` checks its rules.
    public init(name: String, primaryKey: String, conflicts: SyncConflictPolicy, columns: [SyncColumn], access: SyncTableAccess? = nil,
                isEndToEnd: Bool = false) {
        self.name = name
        self.primaryKey = primaryKey
        self.conflicts = conflicts
        self.columns = columns
        self.access = access
        self.isEndToEnd = isEndToEnd
    }

    /// The column named `name`.
    public func column(_ name: String) -> SyncColumn? {
        columns.first { $0.name == name }
    }

    /// The columns of a row's values: all but the primary key, in the
    /// declaration's order.
    public var valueColumns: [SyncColumn] {
        columns.filter { $0.name != primaryKey }
    }

    /// Throws the first rule of a table that this one breaks.
    func check() throws(SyncSchemaError) {
        try SyncIdentifier.check(name, table: nil)
        guard !columns.isEmpty else { throw .noColumns(table: name) }
        var names: Set<String> = []
        for column in columns {
            try column.check(in: name)
            guard names.insert(column.name).inserted else { throw .duplicateColumn(table: name, column: column.name) }
        }
        guard let key = column(primaryKey) else { throw .missingPrimaryKey(table: name, column: primaryKey) }
        guard key.type == .uuid, key.isRequired, key.references == nil else { throw .primaryKeyNotARequiredUUID(table: name, column: primaryKey) }
        try access?.check(table: name)
    }
}

/// The names of tables and columns: lowercase ASCII, digits and
/// underscores, as both SQLite and PostgreSQL read them alike, quoted or
/// not.
enum SyncIdentifier {
    static let maximumLength = 63

    static func check(_ name: String, table: String?) throws(SyncSchemaError) {
        let bytes = Array(name.utf8)
        let isValid = !bytes.isEmpty && bytes.count <= maximumLength
            && !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[0])
            && bytes.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_") }
        guard isValid else { throw .invalidName(name, table: table) }
        // SQLite's own tables, and the engine's (outbox, staging, cursors).
        if name.hasPrefix("sqlite_") || name.hasPrefix("sync_") { throw .reservedName(name, table: table) }
    }
}
