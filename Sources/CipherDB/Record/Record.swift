/// A base class for records that track their changes since they were
/// fetched or saved.
///
/// ```swift
/// final class Player: Record {
///     var id: Int64?
///     var name: String
///
///     override class var databaseTableName: String { "player" }
///
///     init(name: String) {
///         self.name = name
///         super.init()
///     }
///
///     required init(row: Row) throws {
///         id = row["id"]
///         name = row["name"]
///         try super.init(row: row)
///     }
///
///     override func encode(to container: inout PersistenceContainer) throws {
///         container["id"] = id
///         container["name"] = name
///     }
///
///     override func didInsert(_ inserted: InsertionSuccess) {
///         super.didInsert(inserted)
///         id = inserted.rowID
///     }
/// }
///
/// let player = try Player.find(db, key: 1)
/// player.name = "Arthur"
/// if player.hasDatabaseChanges {
///     try player.update(db) // or: try player.updateChanges(db)
/// }
/// ```
///
/// A record is not `Sendable`: persisting it changes its reference row.
open class Record {
    /// The values of the record when it was last fetched, inserted or
    /// updated; nil for a new or deleted record, which has changes in all
    /// its columns.
    private var referenceRow: Row?

    /// A new record: all its columns are changes.
    public init() {}

    /// A record fetched from the database: it has no changes yet.
    /// Subclasses decode their properties, then call this initializer.
    public required init(row: Row) throws {
        if Self.isFetched(row) {
            // A row of a cursor changes at each step: keep a copy.
            referenceRow = row.copy()
        }
    }

    // MARK: - Table and persistence

    /// The name of the table: subclasses must override it.
    open class var databaseTableName: String {
        fatalError("subclass must override databaseTableName")
    }

    /// The conflict resolutions of inserts and updates. Default: abort.
    open class var persistenceConflictPolicy: PersistenceConflictPolicy {
        PersistenceConflictPolicy(insert: .abort, update: .abort)
    }

    /// The columns selected by requests of this type. Default: all.
    open class var databaseSelection: [any SQLSelectable] {
        [AllColumns()]
    }

    /// Writes the column values of the record. Subclasses override it.
    open func encode(to container: inout PersistenceContainer) throws {}

    // MARK: - Changes

    /// Whether the record has values that differ from the database row it
    /// was fetched from or saved to (true for a new record).
    public var hasDatabaseChanges: Bool {
        do {
            return try !databaseChangedValues().isEmpty
        } catch {
            // A record that cannot be encoded can surely not be saved.
            return true
        }
    }

    /// The changed columns, with their values in the database row (nil for
    /// a new record, or a column the row does not have).
    ///
    /// ```swift
    /// player.name = "Barbara"
    /// try player.databaseChanges // ["name": "Arthur"]
    /// ```
    public var databaseChanges: [String: DatabaseValue?] {
        get throws {
            var changes: [String: DatabaseValue?] = [:]
            for (column, oldValue) in try databaseChangedValues() {
                changes[column] = oldValue
            }
            return changes
        }
    }

    /// The changed columns and their old values, in the order of the
    /// record's columns.
    private func databaseChangedValues() throws -> [(String, DatabaseValue?)] {
        let container = try PersistenceContainer(self)
        guard let referenceRow else {
            return container.map { ($0.0, nil) }
        }
        return container.compactMap { column, value in
            guard let index = referenceRow.index(forColumn: column) else { return (column, nil) }
            let oldValue = referenceRow.databaseValue(atUncheckedIndex: index)
            return oldValue == value ? nil : (column, oldValue)
        }
    }

    /// Whether the row comes from a statement (directly or through an
    /// adapter), and not from values made in code.
    private static func isFetched(_ row: Row) -> Bool {
        switch row.impl {
        case .statement: return true
        case .values: return false
        case let .adapted(base, _): return isFetched(base)
        }
    }

    // MARK: - Persistence callbacks

    open func willInsert(_ db: Database) throws {}

    /// Inserts, then remembers the inserted values: the record has no
    /// changes any longer.
    open func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        let inserted = try insert()
        referenceRow = Row(inserted.persistenceContainer)
    }

    open func didInsert(_ inserted: InsertionSuccess) {}

    open func willUpdate(_ db: Database, columns: Set<String>) throws {}

    /// Updates, then remembers the updated values: the record has no
    /// changes any longer.
    open func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        let updated = try update()
        referenceRow = Row(updated.persistenceContainer)
    }

    open func didUpdate(_ updated: PersistenceSuccess) {}

    open func willSave(_ db: Database) throws {}

    open func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        _ = try save()
    }

    open func didSave(_ saved: PersistenceSuccess) {}

    open func willDelete(_ db: Database) throws {}

    /// Deletes, then forgets the database row: all columns are changes,
    /// and a save inserts the record again.
    open func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        _ = try delete()
        referenceRow = nil
    }

    open func didDelete(deleted: Bool) {}

    // MARK: - Updating changes

    /// Updates the changed columns only; returns whether there were any.
    ///
    /// ```swift
    /// player.name = "Barbara"
    /// try player.updateChanges(db) // UPDATE "player" SET "name"=? WHERE "id"=?
    /// ```
    @discardableResult
    public final func updateChanges(_ db: Database) throws -> Bool {
        let changedColumns = try Set(databaseChanges.keys)
        if changedColumns.isEmpty {
            return false
        }
        try update(db, columns: changedColumns)
        return true
    }
}

extension Record: TableRecord {}

extension Record: PersistableRecord {}

extension Record: FetchableRecord {}

// Not Sendable: persistence methods change the reference row, and nothing
// prevents two connections from saving the same record at once.
@available(*, unavailable)
extension Record: Sendable {}

extension Row {
    /// The values of a persistence container, in its column order.
    convenience init(_ container: PersistenceContainer) {
        self.init(values: ContiguousArray(container.values), layout: RowLayout(columnNames: container.columns))
    }
}
