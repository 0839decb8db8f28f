import Foundation

/// Applies the migrations of a database schema, once each, in the order
/// they were registered, each in its own transaction.
///
/// ```swift
/// var migrator = DatabaseMigrator()
/// migrator.registerMigration("v1") { db in
///     try db.create(table: "player") { t in
///         t.autoIncrementedPrimaryKey("id")
///         t.column("name", .text).notNull()
///     }
/// }
/// try migrator.migrate(dbQueue)
/// ```
///
/// Applied migrations are recorded in the `grdb_migrations` table, as GRDB
/// does, so that a database prepared by GRDB is recognised.
public struct DatabaseMigrator: Sendable {
    /// When foreign keys are checked during a migration.
    public enum ForeignKeyChecks: Sendable {
        /// Foreign keys are disabled while the migration runs, so that it
        /// can rebuild tables; `PRAGMA foreign_key_check` runs before the
        /// commit, and a violation fails the migration (default).
        case deferred
        /// Foreign keys are enforced statement by statement.
        case immediate
    }

    /// Whether the database is erased and migrated again when its schema
    /// differs from the schema the applied migrations build: for
    /// development builds only, as it deletes every row.
    public var eraseDatabaseOnSchemaChange = false

    /// Whether the `.deferred` migrations registered from now on check
    /// foreign keys before they commit.
    private var defersForeignKeyChecks = true

    private var registeredMigrations: [Migration] = []

    public init() {}

    /// The identifiers of the registered migrations, in order.
    public var migrations: [String] {
        registeredMigrations.map(\.identifier)
    }

    // MARK: - Registering

    /// A migrator whose `.deferred` migrations, registered from now on,
    /// run with foreign keys off and never check them: faster for big
    /// migrations, but a violation goes unnoticed.
    ///
    /// ```swift
    /// var migrator = DatabaseMigrator().disablingDeferredForeignKeyChecks()
    /// ```
    public func disablingDeferredForeignKeyChecks() -> DatabaseMigrator {
        var migrator = self
        migrator.defersForeignKeyChecks = false
        return migrator
    }

    /// Registers a migration. Identifiers must be unique.
    ///
    /// ```swift
    /// migrator.registerMigration("add score") { db in
    ///     try db.alter(table: "player") { t in t.add(column: "score", .integer) }
    /// }
    /// ```
    public mutating func registerMigration(
        _ identifier: String,
        foreignKeyChecks: ForeignKeyChecks = .deferred,
        migrate: @escaping @Sendable (Database) throws -> Void)
    {
        registerMigration(identifier, foreignKeyChecks: foreignKeyChecks, merging: []) { db, _ in
            try migrate(db)
        }
    }

    /// Registers a migration that replaces former migrations
    /// (`mergedIdentifiers`): a database where some of them were applied
    /// runs it once, with the set of those it already has, and forgets
    /// them; a database where it was applied runs nothing.
    ///
    /// ```swift
    /// migrator.registerMigration("v2", merging: ["v2a", "v2b"]) { db, appliedIDs in
    ///     if !appliedIDs.contains("v2a") { try db.create(table: "team") { … } }
    ///     if !appliedIDs.contains("v2b") { try db.create(table: "award") { … } }
    /// }
    /// ```
    public mutating func registerMigration(
        _ identifier: String,
        foreignKeyChecks: ForeignKeyChecks = .deferred,
        merging mergedIdentifiers: Set<String> = [],
        migrate: @escaping @Sendable (_ db: Database, _ appliedIdentifiers: Set<String>) throws -> Void)
    {
        precondition(!migrations.contains(identifier), "already registered migration: \(String(reflecting: identifier))")
        let checks: Migration.ForeignKeyChecks
        switch foreignKeyChecks {
        case .deferred: checks = defersForeignKeyChecks ? .deferred : .disabled
        case .immediate: checks = .immediate
        }
        // A migration that merges itself merges its predecessors only.
        var mergedIdentifiers = mergedIdentifiers
        mergedIdentifiers.remove(identifier)
        registeredMigrations.append(Migration(
            identifier: identifier,
            mergedIdentifiers: mergedIdentifiers,
            foreignKeyChecks: checks,
            migrate: migrate))
    }

    // MARK: - Migrating

    /// Applies the migrations that were not applied yet.
    ///
    /// Throws ``DatabaseMigratorError`` if the database was migrated by a
    /// newer version of the program (it has migrations this migrator does
    /// not know), and leaves it untouched.
    public func migrate(_ writer: any DatabaseWriter) throws {
        guard let last = registeredMigrations.last else { return }
        try migrate(writer, upTo: last.identifier)
    }

    /// Applies the migrations up to and including `targetIdentifier`.
    public func migrate(_ writer: any DatabaseWriter, upTo targetIdentifier: String) throws {
        try writer.barrierWriteWithoutTransaction { db in
            try migrate(db, upTo: targetIdentifier)
        }
    }

    /// Applies the migrations that were not applied yet, then calls
    /// `completion` with the connection, still in the writer's exclusive
    /// access, or with the error.
    public func asyncMigrate(
        _ writer: any DatabaseWriter,
        completion: @escaping @Sendable (Result<Database, Error>) -> Void)
    {
        writer.asyncBarrierWriteWithoutTransaction { dbResult in
            completion(Result {
                let db = try dbResult.get()
                if let last = registeredMigrations.last {
                    try migrate(db, upTo: last.identifier)
                }
                return db
            })
        }
    }

    private func migrate(_ db: Database, upTo targetIdentifier: String) throws {
        guard let targetIndex = migrations.firstIndex(of: targetIdentifier) else {
            throw DatabaseMigratorError(message: "no migration is registered with identifier \(String(reflecting: targetIdentifier))")
        }
        if eraseDatabaseOnSchemaChange {
            let needsErasure = try db.inTransactionReturning { try hasSchemaChanges(db) }
            if needsErasure { try db.erase() }
        }
        try runMigrations(db, upTo: targetIndex)
    }

    private func runMigrations(_ db: Database, upTo targetIndex: Int) throws {
        let appliedIdentifiers = try appliedIdentifiers(db)
        let unknown = appliedIdentifiers.subtracting(knownIdentifiers)
        guard unknown.isEmpty else {
            throw DatabaseMigratorError(
                message: "the database was migrated by a newer version of the program (unknown migrations: \(unknown.sorted().joined(separator: ", "))): it was left unchanged")
        }
        if let lastApplied = migrations.lastIndex(where: appliedIdentifiers.contains), lastApplied > targetIndex {
            throw DatabaseMigratorError(
                message: "the database is already migrated beyond migration \(String(reflecting: migrations[targetIndex]))")
        }
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        for migration in registeredMigrations[...targetIndex] {
            if appliedIdentifiers.contains(migration.identifier) {
                if !migration.mergedIdentifiers.isDisjoint(with: appliedIdentifiers) {
                    try migration.deleteMergedIdentifiers(db)
                }
            } else {
                try migration.run(db, appliedMergedIdentifiers: migration.mergedIdentifiers.intersection(appliedIdentifiers))
            }
        }
    }

    /// The identifiers of the registered migrations and of the migrations
    /// they merge.
    private var knownIdentifiers: Set<String> {
        registeredMigrations.reduce(into: []) { identifiers, migration in
            identifiers.insert(migration.identifier)
            identifiers.formUnion(migration.mergedIdentifiers)
        }
    }

    // MARK: - Schema changes

    /// Whether the database has migrations this migrator does not know, or
    /// a schema that differs from the one its applied migrations build in
    /// a new database: a migration was edited, as happens during
    /// development. SQLite's own tables and `grdb_migrations` are not
    /// compared.
    ///
    /// ```swift
    /// if try dbQueue.read(migrator.hasSchemaChanges) {
    ///     try dbQueue.erase()
    /// }
    /// try migrator.migrate(dbQueue)
    /// ```
    public func hasSchemaChanges(_ db: Database) throws -> Bool {
        let appliedIdentifiers = try appliedIdentifiers(db)
        if !appliedIdentifiers.isSubset(of: migrations) { return true }
        guard let lastApplied = migrations.lastIndex(where: appliedIdentifiers.contains) else { return false }
        // The reference database has the configuration of the migrated one
        // (functions, collations, passphrase), but can be written, and runs
        // on its own queue: the target queue of the migrated database is
        // busy with the current access.
        var referenceConfiguration = db.configuration
        referenceConfiguration.readonly = false
        referenceConfiguration.targetQueue = nil
        referenceConfiguration.writeTargetQueue = nil
        referenceConfiguration.label = "CipherDB.DatabaseMigrator.reference"
        // A file, not an in-memory database: `prepareDatabase` may call
        // `sqlite3_file_control`, which an in-memory database refuses (GRDB's
        // issue 931). It is encrypted when the migrated database is.
        let referenceURL = FileManager.default.temporaryDirectory
            .appendingPathComponent("CipherDB.DatabaseMigrator.\(UUID().uuidString).sqlite")
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: referenceURL.path + suffix)
            }
        }
        let reference = try DatabaseQueue(path: referenceURL.path, configuration: referenceConfiguration)
        let referenceSchema = try reference.writeWithoutTransaction { referenceDB in
            try runMigrations(referenceDB, upTo: lastApplied)
            return try userSchema(referenceDB)
        }
        try reference.close()
        return try userSchema(db) != referenceSchema
    }

    /// The schema objects of the database, but SQLite's and the migrator's.
    private func userSchema(_ db: Database) throws -> Set<[String?]> {
        let rows = try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master")
        return Set(rows.compactMap { row in
            let name: String = row["name"]
            if Database.isSQLiteInternalTable(name) || Database.isGRDBInternalTable(name) { return nil }
            return [row["type"], name, row["tbl_name"], row["sql"]]
        })
    }

    // MARK: - Introspection

    /// Every identifier recorded in the database, known or not.
    public func appliedIdentifiers(_ db: Database) throws -> Set<String> {
        guard try db.tableExists("grdb_migrations") else { return [] }
        return try Set(String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
    }

    /// The registered migrations applied to the database, in order.
    public func appliedMigrations(_ db: Database) throws -> [String] {
        let appliedIdentifiers = try appliedIdentifiers(db)
        return migrations.filter(appliedIdentifiers.contains)
    }

    /// The registered migrations that were applied in order, up to the
    /// first that was not: `["1"]` when "1" and "3" were applied and "2"
    /// was registered between them since.
    public func completedMigrations(_ db: Database) throws -> [String] {
        let appliedMigrations = try appliedMigrations(db)
        return zip(appliedMigrations, migrations)
            .prefix { applied, registered in applied == registered }
            .map { applied, _ in applied }
    }

    /// Whether every registered migration was applied, in order.
    public func hasCompletedMigrations(_ db: Database) throws -> Bool {
        try completedMigrations(db).last == migrations.last
    }

    /// Whether the database has migrations this migrator does not know:
    /// it was migrated by a newer version of the program.
    public func hasBeenSuperseded(_ db: Database) throws -> Bool {
        try !appliedIdentifiers(db).isSubset(of: migrations)
    }
}

/// An error of ``DatabaseMigrator``, safe to show.
public struct DatabaseMigratorError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}
