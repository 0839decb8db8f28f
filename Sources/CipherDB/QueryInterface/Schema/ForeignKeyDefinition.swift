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
    let onDelete: Database.ForeignKeyAction?
    let onUpdate: Database.ForeignKeyAction?
    let deferred: Bool
    private(set) var indexing: Indexing?
    private(set) var notNullConflict: Database.ConflictResolution??

    init(name: String, table: String?, onDelete: Database.ForeignKeyAction?, onUpdate: Database.ForeignKeyAction?,
         deferred: Bool, indexed: Bool)
    {
        self.name = name
        self.table = table
        self.onDelete = onDelete
        self.onUpdate = onUpdate
        self.deferred = deferred
        self.indexing = indexed ? .index : nil
    }

    /// `NOT NULL` on the foreign key columns.
    @discardableResult
    public func notNull(onConflict conflict: Database.ConflictResolution? = nil) -> Self {
        notNullConflict = .some(conflict)
        return self
    }

    /// A unique index on the foreign key columns (`UNIQUE` for one column):
    /// at most one row refers to each referenced row.
    @discardableResult
    public func unique() -> Self {
        indexing = .unique
        return self
    }
}

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
    /// The columns and constraints of the foreign key, in a table named
    /// `originTable` whose own primary key is `forwardPrimaryKey`.
    func generated(_ db: Database, originTable: String, forwardPrimaryKey: PrimaryKeyDescriptor)
        throws -> (columns: [ColumnDefinition], constraint: TableDefinition.ForeignKeyConstraint?, compositeIndex: [String]?)
    {
        let destination = try destinationPrimaryKey(db, originTable: originTable, forwardPrimaryKey: forwardPrimaryKey)
        guard let keyColumns = destination.columns else {
            // A hidden rowid: `nameId INTEGER REFERENCES table`.
            let column = ColumnDefinition(name: name + "Id", type: .integer)
                .references(destination.table, onDelete: onDelete, onUpdate: onUpdate, deferred: deferred)
            refine(column)
            return ([column], nil, nil)
        }
        let names = keyColumns.map { name + $0.name.uppercasingFirstCharacter }
        if keyColumns.count == 1 {
            let column = ColumnDefinition(name: names[0], type: keyColumns[0].type)
                .references(destination.table, column: keyColumns[0].name, onDelete: onDelete, onUpdate: onUpdate, deferred: deferred)
            refine(column)
            return ([column], nil, nil)
        }
        // A composite key: a table constraint, and an index on all columns.
        let columns = zip(names, keyColumns).map { name, keyColumn in
            let column = ColumnDefinition(name: name, type: keyColumn.type)
            if let notNullConflict { column.notNull(onConflict: notNullConflict) }
            return column
        }
        let constraint = TableDefinition.ForeignKeyConstraint(
            columns: names, table: destination.table, destination: nil,
            onDelete: onDelete, onUpdate: onUpdate, deferred: deferred)
        return (columns, constraint, indexing == nil ? nil : names)
    }

    /// Whether the composite index is unique.
    var isUnique: Bool { indexing == .unique }

    private func refine(_ column: ColumnDefinition) {
        if let notNullConflict { column.notNull(onConflict: notNullConflict) }
        switch indexing {
        case nil: break
        case .index: column.indexed()
        case .unique: column.unique()
        }
    }

    private func destinationPrimaryKey(_ db: Database, originTable: String, forwardPrimaryKey: PrimaryKeyDescriptor)
        throws -> PrimaryKeyDescriptor
    {
        if let table {
            if table.lowercased() == originTable.lowercased() { return forwardPrimaryKey }
            return try PrimaryKeyDescriptor.find(db, table: table)
        }
        if originTable.singularized.lowercased() == name.singularized.lowercased() { return forwardPrimaryKey }
        if try db.tableExists(name) { return try PrimaryKeyDescriptor.find(db, table: name) }
        let pluralizedName = name.pluralized
        if try db.tableExists(pluralizedName) { return try PrimaryKeyDescriptor.find(db, table: pluralizedName) }
        throw DatabaseError.noSuchTable(name)
    }
}
