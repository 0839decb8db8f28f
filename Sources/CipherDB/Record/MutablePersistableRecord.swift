/// A type that can be inserted, updated, saved and deleted, and that may
/// change on insertion (an auto-incremented id).
///
/// ```swift
/// struct Player: Codable, FetchableRecord, MutablePersistableRecord {
///     var id: Int64?
///     var name: String
///     var score: Int
///
///     mutating func didInsert(_ inserted: InsertionSuccess) {
///         id = inserted.rowID
///     }
/// }
///
/// try dbQueue.write { db in
///     var player = Player(id: nil, name: "Arthur", score: 100)
///     try player.insert(db)      // player.id is set
///     player.score = 1000
///     try player.update(db)
///     try player.delete(db)
/// }
/// ```
///
/// Each operation runs its callbacks in GRDB's order: `willSave`,
/// `aroundSave` { `willInsert`, `aroundInsert` { insert }, `didInsert` },
/// `didSave` (and likewise for updates and deletions).
public protocol MutablePersistableRecord: EncodableRecord, TableRecord {
    /// The conflict resolution of inserts and updates. Default: abort.
    static var persistenceConflictPolicy: PersistenceConflictPolicy { get }

    mutating func willInsert(_ db: Database) throws
    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws
    /// Called after a successful insertion: the place to store the new id.
    mutating func didInsert(_ inserted: InsertionSuccess)

    func willUpdate(_ db: Database, columns: Set<String>) throws
    func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws
    func didUpdate(_ updated: PersistenceSuccess)

    func willSave(_ db: Database) throws
    func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws
    func didSave(_ saved: PersistenceSuccess)

    func willDelete(_ db: Database) throws
    func aroundDelete(_ db: Database, delete: () throws -> Bool) throws
    func didDelete(deleted: Bool)
}

extension MutablePersistableRecord {
    public static var persistenceConflictPolicy: PersistenceConflictPolicy { PersistenceConflictPolicy() }

    public mutating func willInsert(_ db: Database) throws {}
    public func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws { _ = try insert() }
    public mutating func didInsert(_ inserted: InsertionSuccess) {}

    public func willUpdate(_ db: Database, columns: Set<String>) throws {}
    public func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws { _ = try update() }
    public func didUpdate(_ updated: PersistenceSuccess) {}

    public func willSave(_ db: Database) throws {}
    public func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws { _ = try save() }
    public func didSave(_ saved: PersistenceSuccess) {}

    public func willDelete(_ db: Database) throws {}
    public func aroundDelete(_ db: Database, delete: () throws -> Bool) throws { _ = try delete() }
    public func didDelete(deleted: Bool) {}
}

/// The conflict resolutions of a record type's inserts and updates.
///
/// See <https://www.sqlite.org/lang_conflict.html>.
public struct PersistenceConflictPolicy: Sendable {
    public let conflictResolutionForInsert: Database.ConflictResolution
    public let conflictResolutionForUpdate: Database.ConflictResolution

    public init(insert: Database.ConflictResolution = .abort, update: Database.ConflictResolution = .abort) {
        conflictResolutionForInsert = insert
        conflictResolutionForUpdate = update
    }
}

/// The result of an insertion.
public struct InsertionSuccess: Sendable {
    /// The rowid of the inserted row.
    public var rowID: Int64
    /// The `INTEGER PRIMARY KEY` column that holds the rowid, if any.
    public var rowIDColumn: String?
    /// The inserted values, with the rowid column set.
    public var persistenceContainer: PersistenceContainer
}

/// The result of an update or a save.
public struct PersistenceSuccess: Sendable {
    /// The saved values.
    public var persistenceContainer: PersistenceContainer

    init(persistenceContainer: PersistenceContainer) {
        self.persistenceContainer = persistenceContainer
    }

    init(_ inserted: InsertionSuccess) {
        persistenceContainer = inserted.persistenceContainer
    }
}

extension MutablePersistableRecord {
    /// The error thrown when an `around…` callback does not call its
    /// function, or swallows its error: a programmer error, thrown rather
    /// than trapped because it shows only when the database fails.
    func persistenceCallbackMisuse(_ callback: String) -> DatabaseError {
        DatabaseError(resultCode: .SQLITE_MISUSE, message: """
            Incorrect implementation of the `\(Self.self).\(callback)` persistence callback: \
            the action function was not called, or its error was not rethrown.
            """)
    }
}
