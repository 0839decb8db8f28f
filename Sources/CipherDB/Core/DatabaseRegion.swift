/// A part of a database: tables, some of their columns, some of their rows.
///
/// Regions tell which changes impact a request:
///
/// ```swift
/// let region = try Player.filter(Column("score") > 10).databaseRegion(db)
/// // player(id,name,score)
/// ```
public struct DatabaseRegion: Hashable, Sendable {
    /// Per table name, spelled as first given (the schema's spelling, for
    /// the regions of statements); nil means the full database.
    private var tableRegions: [CaseInsensitiveIdentifier: TableRegion]?

    struct TableRegion: Hashable, Sendable {
        /// Column names; nil means all columns.
        var columns: Set<CaseInsensitiveIdentifier>?
        /// Rowids; nil means all rows.
        var rowIDs: Set<Int64>?

        func union(_ other: TableRegion) -> TableRegion {
            TableRegion(
                columns: columns.flatMap { lhs in other.columns.map { lhs.union($0) } },
                rowIDs: rowIDs.flatMap { lhs in other.rowIDs.map { lhs.union($0) } })
        }

        /// Nil (all) gives way to the other side's set.
        func intersection(_ other: TableRegion) -> TableRegion {
            TableRegion(
                columns: columns.map { lhs in other.columns.map { lhs.intersection($0) } ?? lhs } ?? other.columns,
                rowIDs: rowIDs.map { lhs in other.rowIDs.map { lhs.intersection($0) } ?? lhs } ?? other.rowIDs)
        }

        /// No column or no row.
        var isEmpty: Bool {
            columns?.isEmpty == true || rowIDs?.isEmpty == true
        }
    }

    /// The empty region.
    public init() {
        tableRegions = [:]
    }

    /// The full database: any change impacts it.
    public static let fullDatabase: DatabaseRegion = {
        var region = DatabaseRegion()
        region.tableRegions = nil
        return region
    }()

    /// The full content of a table.
    public init(table: String) {
        tableRegions = [CaseInsensitiveIdentifier(table): TableRegion(columns: nil, rowIDs: nil)]
    }

    /// Some columns of a table (names are case-insensitive).
    ///
    /// ```swift
    /// let region = DatabaseRegion(table: "player", columns: ["name", "score"])
    /// // player(name,score)
    /// ```
    ///
    /// GRDB keeps this initializer internal.
    public init(table: String, columns: Set<String>) {
        tableRegions = [CaseInsensitiveIdentifier(table): TableRegion(columns: Set(columns.map(CaseInsensitiveIdentifier.init)), rowIDs: nil)]
    }

    /// Some rows of a table, by rowid.
    ///
    /// ```swift
    /// let region = DatabaseRegion(table: "player", rowIds: [1, 2])
    /// // player(*)[1,2]
    /// ```
    ///
    /// GRDB keeps this initializer internal.
    public init(table: String, rowIds: Set<Int64>) {
        tableRegions = [CaseInsensitiveIdentifier(table): TableRegion(columns: nil, rowIDs: rowIds)]
    }

    public var isEmpty: Bool { tableRegions?.isEmpty ?? false }

    /// Whether the region includes some of the table.
    func mentions(table: String) -> Bool {
        tableRegions.map { $0[CaseInsensitiveIdentifier(table)] != nil } ?? true
    }

    public var isFullDatabase: Bool { tableRegions == nil }

    /// The union of two regions.
    public func union(_ other: DatabaseRegion) -> DatabaseRegion {
        guard let lhs = tableRegions, let rhs = other.tableRegions else { return .fullDatabase }
        var result = DatabaseRegion()
        result.tableRegions = lhs.merging(rhs) { $0.union($1) }
        return result
    }

    /// Adds a region.
    public mutating func formUnion(_ other: DatabaseRegion) {
        self = union(other)
    }

    /// The part common to two regions: the columns and rows of the tables
    /// both mention. The full database is neutral.
    ///
    /// ```swift
    /// DatabaseRegion(table: "player", columns: ["name", "score"])
    ///     .intersection(DatabaseRegion(table: "player", rowIds: [1]))
    /// // player(name,score)[1]
    /// ```
    ///
    /// GRDB keeps this method internal.
    public func intersection(_ other: DatabaseRegion) -> DatabaseRegion {
        guard let lhs = tableRegions else { return other }
        guard let rhs = other.tableRegions else { return self }
        var result = DatabaseRegion()
        for (table, region) in lhs {
            guard let otherRegion = rhs[table] else { continue }
            let common = region.intersection(otherRegion)
            if !common.isEmpty { result.tableRegions![table] = common }
        }
        return result
    }

    /// The region, with `table` restricted to some rows. A table that keeps
    /// no row leaves the region; the full database becomes those rows.
    func tableIntersection(_ table: String, rowIDs: Set<Int64>) -> DatabaseRegion {
        guard var tableRegions else { return DatabaseRegion(table: table, rowIds: rowIDs) }
        let key = CaseInsensitiveIdentifier(table)
        guard let tableRegion = tableRegions[key] else { return self }
        let common = tableRegion.intersection(TableRegion(columns: nil, rowIDs: rowIDs))
        tableRegions[key] = common.isEmpty ? nil : common
        var result = DatabaseRegion()
        result.tableRegions = tableRegions
        return result
    }

    /// Whether events of this kind can impact the region.
    public func isModified(byEventsOfKind eventKind: DatabaseEventKind) -> Bool {
        guard let tableRegions else { return true }
        guard let region = tableRegions[CaseInsensitiveIdentifier(eventKind.tableName)] else { return false }
        switch eventKind {
        case .insert, .delete:
            return true
        case .update(_, let columnNames):
            guard let columns = region.columns else { return true }
            return columnNames.contains { columns.contains(CaseInsensitiveIdentifier($0)) }
        }
    }

    /// Whether the event impacts the region. Only call it for events whose
    /// kind ``isModified(byEventsOfKind:)`` accepts: an event of another
    /// table is one that its statement did not advertise (a virtual
    /// table's shadow table), and may have changed anything, as in GRDB.
    public func isModified(by event: DatabaseEvent) -> Bool {
        guard let tableRegions else { return true }
        guard let region = tableRegions[CaseInsensitiveIdentifier(event.tableName)] else { return true }
        return region.rowIDs?.contains(event.rowID) ?? true
    }
}

extension DatabaseRegion {
    /// The kinds of events that modify the region, with the table names of
    /// the schema (a region built from a name keeps the name's spelling).
    /// A table that no schema has changes nothing, as in GRDB: neither
    /// an unknown table nor `sqlite_temp_master` before the connection
    /// has a temporary schema.
    func impactfulEventKinds(_ db: Database) throws -> [DatabaseEventKind] {
        // Named as their schema writes them: observers compare names.
        let schemaIDs = try db.schemaIdentifiers()
        let tableNames = try db.tableNames(of: schemaIDs)
        let tables: [(name: String, columns: Set<String>?)]
        if let tableRegions {
            // `sqlite_master`, and `sqlite_temp_master` once the connection
            // has a temporary schema: a region can name them.
            let schemaTableNames = [DatabaseSchemaID.main, .temp].filter(schemaIDs.contains).map(\.schemaTableName)
            let namesByKey = Dictionary(
                (tableNames + schemaTableNames).map { (CaseInsensitiveIdentifier($0), $0) },
                uniquingKeysWith: { first, _ in first })
            tables = tableRegions.compactMap { key, region in
                namesByKey[key].map { ($0, region.columns.map { Set($0.map(\.rawValue)) }) }
            }
        } else {
            tables = tableNames.map { ($0, nil) }
        }
        return try tables.flatMap { table, columns -> [DatabaseEventKind] in
            let columnNames = try columns ?? Set(db.columns(in: table).map(\.name))
            return [
                .delete(tableName: table),
                .insert(tableName: table),
                .update(tableName: table, columnNames: columnNames),
            ]
        }
    }
}

extension DatabaseRegion {
    /// The region an observation tracks: the tables of the region, without
    /// SQLite's own (`sqlite_master`, read by schema introspection: no
    /// transaction observer is told of their changes) and without views
    /// (a read of a view also reads its tables, which are in the region).
    func observableRegion(_ db: Database) throws -> DatabaseRegion {
        guard let tableRegions else { return self }
        let tableNames = Set(try db.tableNames(of: db.schemaIdentifiers()).map(CaseInsensitiveIdentifier.init))
        var region = self
        region.tableRegions = tableRegions.filter { table, _ in
            !Database.isSQLiteInternalTable(table.rawValue) && tableNames.contains(table)
        }
        return region
    }
}

extension Database {
    /// The names of the tables of the schemas (temporary and attached
    /// included), as their schema writes them.
    fileprivate func tableNames(of schemaIDs: [DatabaseSchemaID]) throws -> [String] {
        try schemaIDs.flatMap { schemaID in
            try String.fetchAll(self, sql: "SELECT name FROM \(schemaID.quotedSchemaTableSQL) WHERE type = 'table'")
        }
    }
}

extension [any DatabaseRegionConvertible] {
    /// The union of the regions.
    func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try reduce(into: DatabaseRegion()) { $0.formUnion(try $1.databaseRegion(db)) }
    }
}

extension DatabaseRegion: CustomStringConvertible {
    /// `player(name,score),team(*)`, `full database`, or `empty`: `(*)`
    /// stands for all columns, and `[1,2]` lists rowids.
    public var description: String {
        guard let tableRegions else { return "full database" }
        if tableRegions.isEmpty { return "empty" }
        return tableRegions.sorted { $0.key.rawValue < $1.key.rawValue }.map { table, region in
            var description = table.rawValue
            if let columns = region.columns {
                description += "(" + columns.map(\.rawValue).sorted().joined(separator: ",") + ")"
            } else {
                description += "(*)"
            }
            if let rowIDs = region.rowIDs { description += "[" + rowIDs.sorted().map(String.init).joined(separator: ",") + "]" }
            return description
        }.joined(separator: ",")
    }
}

/// A type that designates a region: regions themselves, requests (the
/// region they read), tables.
public protocol DatabaseRegionConvertible: Sendable {
    func databaseRegion(_ db: Database) throws -> DatabaseRegion
}

extension DatabaseRegion: DatabaseRegionConvertible {
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion { self }
}

extension DatabaseRegionConvertible where Self == DatabaseRegion {
    /// The full database, wherever a region is expected:
    /// `ValueObservation.tracking(region: .fullDatabase) { ... }`.
    public static var fullDatabase: Self { DatabaseRegion.fullDatabase }
}

/// A type-erased ``DatabaseRegionConvertible``, or a region computed by a
/// function.
///
/// ```swift
/// let region = AnyDatabaseRegionConvertible { db in
///     try Player.all().databaseRegion(db).union(Team.all().databaseRegion(db))
/// }
/// ```
public struct AnyDatabaseRegionConvertible: DatabaseRegionConvertible {
    private let region: @Sendable (Database) throws -> DatabaseRegion

    /// A region computed by `region`.
    public init(_ region: @escaping @Sendable (Database) throws -> DatabaseRegion) {
        self.region = region
    }

    /// Wraps a region.
    public init(_ region: some DatabaseRegionConvertible) {
        self.region = region.databaseRegion
    }

    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try region(db)
    }
}

extension FetchRequest {
    /// The region the request reads.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try makePreparedRequest(db).statement.databaseRegion
    }
}
