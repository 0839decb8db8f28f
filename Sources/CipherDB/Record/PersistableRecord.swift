/// A type that can be inserted, updated, saved and deleted, and that does
/// not change on insertion (its primary key is not auto-incremented).
///
/// ```swift
/// struct Country: Codable, PersistableRecord {
///     var code: String
///     var name: String
/// }
/// try Country(code: "FR", name: "France").insert(db)
/// ```
public protocol PersistableRecord: MutablePersistableRecord {
    func willInsert(_ db: Database) throws
    func didInsert(_ inserted: InsertionSuccess)
}

extension PersistableRecord {
    public func willInsert(_ db: Database) throws {}
    public func didInsert(_ inserted: InsertionSuccess) {}

    /// Inserts the record.
    public func insert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        var record = self
        try record.performInsert(db, onConflict: conflictResolution)
    }

    /// Updates the record if its row exists, or else inserts it.
    public func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        var record = self
        try record.performSave(db, onConflict: conflictResolution)
    }

    /// Inserts the record, or updates it if a row has its primary key.
    public func upsert(_ db: Database) throws {
        var record = self
        try record.performUpsert(db)
    }
}
