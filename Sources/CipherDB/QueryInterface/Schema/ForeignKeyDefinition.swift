/// The foreign key that ``TableDefinition/belongsTo(_:inTable:onDelete:onUpdate:deferred:indexed:)``
/// adds: one column per column of the referenced primary key, named after
/// the association and the key column (`teamId`, `countryCode`), of the
/// same type, indexed unless told otherwise.
///
/// ```swift
/// try db.create(table: "player") { t in
///     t.autoIncrementedPrimaryKey("id")
///     t.belongsTo("team").notNull()     // teamId INTEGER NOT NULL REFERENCES team(id)
///     t.belongsTo("country").unique()   // countryCode TEXT UNIQUE REFERENCES country(code)
/// }
/// ```
///
/// The referenced table is resolved when the table is created: `inTable`,
/// or the table named like the association (`team`), or its plural
/// (`teams`), or the table being created when the association names it
/// (`t.belongsTo("parent")` in a `parent` or `parents` table).
///
/// See <https://www.sqlite.org/foreignkeys.html>.
public final class ForeignKeyDefinition {
    enum Indexing { case index, unique }

    let name: String
    let table: String?
    let deleteAction: Database.ForeignKeyAction?
    let updateAction: Database.ForeignKeyAction?
    let isDeferred: Bool
    private(set) var indexing: Indexing?
    /// `.abort`, SQLite's default, writes a plain `NOT NULL`.
    private(set) var notNullConflictResolution: Database.ConflictResolution?

    init(name: String, table: String?, deleteAction: Database.ForeignKeyAction?, updateAction: Database.ForeignKeyAction?,
         isDeferred: Bool, isIndexed: Bool)
    {
        self.name = name
        self.table = table
        self.deleteAction = deleteAction
        self.updateAction = updateAction
        self.isDeferred = isDeferred
        self.indexing = isIndexed ? .index : nil
    }

    /// `NOT NULL` on the foreign key columns: `t.belongsTo("team").notNull()`.
    @discardableResult
    public func notNull(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        notNullConflictResolution = conflictResolution ?? .abort
        return self
    }

    /// A unique index on the foreign key columns (`UNIQUE` for one column):
    /// at most one row refers to each referenced row.
    ///
    /// ```swift
    /// t.belongsTo("country").unique() // countryCode TEXT UNIQUE REFERENCES country(code)
    /// ```
    @discardableResult
    public func unique() -> Self {
        indexing = .unique
        return self
    }
}

// A mutable class, used by one definition at a time.
@available(*, unavailable)
extension ForeignKeyDefinition: Sendable {}

/// A table and the columns and types of its primary key; nil columns for
/// a hidden rowid.
struct PrimaryKeyDescriptor {
    var table: String
    var columns: [(name: String, type: Database.ColumnType?)]?

    /// The primary key of an existing table.
    static func find(_ db: Database, table: String) throws -> PrimaryKeyDescriptor {
        let keyColumns = try db.primaryKey(table).columnInfos
        return PrimaryKeyDescriptor(table: table, columns: keyColumns?.map {
            ($0.name, $0.type.isEmpty ? nil : Database.ColumnType(rawValue: $0.type))
        })
    }
}

extension ForeignKeyDefinition {
    /// What the foreign key adds to a table: its columns, and for a
    /// composite key a table constraint and an index on all columns.
    struct Generated {
        var columns: [ColumnDefinition]
        var constraint: TableDefinition.ForeignKeyConstraint?
        var index: IndexDefinition?
    }

    /// The columns and constraints of the foreign key, in `originTable`
    /// whose own primary key is `forwardPrimaryKey` (nil while that
    /// primary key is being defined).
    func generated(_ db: Database, originTable: String, forwardPrimaryKey: PrimaryKeyDescriptor?, indexOptions: IndexOptions)
        throws -> Generated
    {
        let destination = try destinationPrimaryKey(db, originTable: originTable, forwardPrimaryKey: forwardPrimaryKey)
        guard let keyColumns = destination.columns else {
            // A hidden rowid: `nameId INTEGER REFERENCES table("rowid")`.
            let column = ColumnDefinition(name: name + "Id", type: .integer)
            column.references(destination.table, onDelete: deleteAction, onUpdate: updateAction, deferred: isDeferred)
            return Generated(columns: [refinedSingleColumn(column)], constraint: nil, index: nil)
        }
        let names = keyColumns.map { name + $0.name.uppercasingFirstCharacter }
        if keyColumns.count == 1 {
            let column = ColumnDefinition(name: names[0], type: keyColumns[0].type)
            column.references(destination.table, column: keyColumns[0].name, onDelete: deleteAction, onUpdate: updateAction, deferred: isDeferred)
            return Generated(columns: [refinedSingleColumn(column)], constraint: nil, index: nil)
        }
        let columns = zip(names, keyColumns).map { name, keyColumn in
            let column = ColumnDefinition(name: name, type: keyColumn.type)
            if let notNullConflictResolution { column.notNull(onConflict: notNullConflictResolution) }
            return column
        }
        let constraint = TableDefinition.ForeignKeyConstraint(
            columns: names, destinationTable: destination.table, destinationColumns: nil,
            deleteAction: deleteAction, updateAction: updateAction, isDeferred: isDeferred)
        let index = indexing.map { indexing in
            IndexDefinition(table: originTable, columns: names,
                            options: indexing == .unique ? indexOptions.union(.unique) : indexOptions)
        }
        return Generated(columns: columns, constraint: constraint, index: index)
    }

    private func refinedSingleColumn(_ column: ColumnDefinition) -> ColumnDefinition {
        if let notNullConflictResolution { column.notNull(onConflict: notNullConflictResolution) }
        switch indexing {
        case nil: break
        case .index: column.indexed()
        case .unique: column.unique()
        }
        return column
    }

    private func destinationPrimaryKey(_ db: Database, originTable: String, forwardPrimaryKey: PrimaryKeyDescriptor?)
        throws -> PrimaryKeyDescriptor
    {
        if let forwardPrimaryKey {
            let isAutoreference = if let table {
                table.lowercased() == originTable.lowercased()
            } else {
                name.singularized.lowercased() == originTable.singularized.lowercased()
            }
            if isAutoreference { return forwardPrimaryKey }
        }
        if let table { return try PrimaryKeyDescriptor.find(db, table: table) }
        if try db.tableExists(name) { return try PrimaryKeyDescriptor.find(db, table: name) }
        let pluralizedName = name.pluralized
        if try db.tableExists(pluralizedName) { return try PrimaryKeyDescriptor.find(db, table: pluralizedName) }
        throw DatabaseError.noSuchTable(name)
    }
}
