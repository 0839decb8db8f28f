import SyncSchema

/// Why the engine's store cannot serve.
public enum SyncStoreError: Error, Equatable, CustomStringConvertible {
    /// The database has no identity, no epoch or no counter.
    case historyMissing
    /// A call after the store was closed.
    case closed
    /// The database's schema is of a later program.
    case newerSchema(version: Int, supported: Int)
    /// The database closed while another program had it open (and read
    /// it): its write-ahead log stays beside the file until that program
    /// closes it. Nothing is lost.
    case closedInUse(path: String)
    /// The database holds rows of tables that the store's declaration does
    /// not declare: served, they could be neither read nor checked.
    case undeclaredTables([String])

    public var description: String {
        switch self {
        case .historyMissing: "the database has no identity, epoch or counter: it is damaged, or not a sync server's"
        case .closed: "the store is closed"
        case .newerSchema(let version, let supported):
            "the sync tables' schema is at version \(version), newer than this program's \(supported): upgrade players-server"
        case .closedInUse(let path):
            "the database is closed, but another program has \(path) open: its write-ahead log stays in \(path)-wal until that program closes it (nothing is lost), and until then a copy of \(path) alone is not complete"
        case .undeclaredTables(let tables):
            "the database holds rows of \(tables.count == 1 ? "the table" : "the tables") \(tables.joined(separator: ", ")), which the declarations "
                + "given do not declare: declare \(tables.count == 1 ? "it" : "them") too (players-server --schema), or use another database"
        }
    }

    /// Throws ``undeclaredTables(_:)`` unless `schema` declares every table
    /// of `storedTables` (the tables a store holds rows of), which a store
    /// checks when it opens.
    public static func checkDeclared(_ storedTables: [String], by schema: SyncSchema) throws(SyncStoreError) {
        let undeclared = storedTables.filter { schema.table($0) == nil }.sorted()
        if !undeclared.isEmpty { throw .undeclaredTables(undeclared) }
    }
}
