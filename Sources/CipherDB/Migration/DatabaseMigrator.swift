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

    struct Migration: Sendable {
        let identifier: String
        let foreignKeyChecks: ForeignKeyChecks
        let migrate: @Sendable (Database) throws -> Void
    }

    private(set) var registeredMigrations: [Migration] = []

    /// Whether the database is erased and migrated again when its schema
    /// differs from the schema the registered migrations build: for
    /// development builds only, as it deletes every row.
    public var eraseDatabaseOnSchemaChange = false

    public init() {}

    /// The identifiers of the registered migrations, in order.
    public var migrations: [String] {
        registeredMigrations.map(\.identifier)
    }

    /// Registers a migration. Identifiers must be unique.
    public mutating func registerMigration(
        _ identifier: String,
        foreignKeyChecks: ForeignKeyChecks = .deferred,
        migrate: @escaping @Sendable (Database) throws -> Void)
    {
        precondition(!migrations.contains(identifier), "Already registered migration: \(String(reflecting: identifier))")
        registeredMigrations.append(Migration(identifier: identifier, foreignKeyChecks: foreignKeyChecks, migrate: migrate))
    }

    // MARK: - Migrating

    /// Applies the migrations that were not applied yet.
    ///
    /// Throws ``DatabaseMigratorError`` if the database was migrated by a
    /// newer version of the program (it has migrations this migrator does
    /// not know), and leaves it untouched.
    public func migrate(_ writer: some DatabaseWriter) throws {
        guard let last = registeredMigrations.last else { return }
        try migrate(writer, upTo: last.identifier)
    }

    /// Applies the migrations up to and including `targetIdentifier`.
    public func migrate(_ writer: some DatabaseWriter, upTo targetIdentifier: String) throws {
        guard let targetIndex = migrations.firstIndex(of: targetIdentifier) else {
            throw DatabaseMigratorError(message: "no migration is registered with identifier \(String(reflecting: targetIdentifier))")
        }
        try writer.barrierWriteWithoutTransaction { db in
            if eraseDatabaseOnSchemaChange, try needsErasure(db, configuration: writer.configuration) {
                try db.erase()
            }
            try migrate(db, upTo: targetIndex)
        }
    }

    private func migrate(_ db: Database, upTo targetIndex: Int) throws {
        let applied = try appliedIdentifiers(db)
        let unknown = applied.subtracting(migrations)
        guard unknown.isEmpty else {
            throw DatabaseMigratorError(
                message: "the database was migrated by a newer version of the program (unknown migrations: \(unknown.sorted().joined(separator: ", "))): it was left unchanged")
        }
        if let lastApplied = migrations.lastIndex(where: applied.contains), lastApplied > targetIndex {
            throw DatabaseMigratorError(
                message: "the database is already migrated beyond \(String(reflecting: migrations[targetIndex]))")
        }
        for migration in registeredMigrations[...targetIndex] where !applied.contains(migration.identifier) {
            try run(migration, in: db)
        }
    }

    /// Runs one migration in its own transaction, and records it. The
    /// migration sees the schema as SQLite knows it, without the schema
    /// source: a migration must not depend on it.
    private func run(_ migration: Migration, in db: Database) throws {
        try db.withSchemaSource(nil) {
            try runWithoutSchemaSource(migration, in: db)
        }
    }

    private func runWithoutSchemaSource(_ migration: Migration, in db: Database) throws {
        // PRAGMA foreign_keys has no effect inside a transaction: it is
        // switched off before, and back on after.
        let disablesForeignKeys = try migration.foreignKeyChecks == .deferred
            && (Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? false)
        if disablesForeignKeys { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
        defer {
            if disablesForeignKeys { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
        }
        try db.inTransaction(.immediate) {
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            try migration.migrate(db)
            if migration.foreignKeyChecks == .deferred {
                try checkForeignKeys(db, migration: migration.identifier)
            }
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [migration.identifier])
            return .commit
        }
    }

    private func checkForeignKeys(_ db: Database, migration: String) throws {
        guard let violation = try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") else { return }
        let table: String = violation["table"]
        let parent: String = violation["parent"]
        throw DatabaseError(
            resultCode: .SQLITE_CONSTRAINT_FOREIGNKEY,
            message: "migration \(String(reflecting: migration)) left a row of table \(table) referencing a missing row of table \(parent): the migration was rolled back")
    }

    // MARK: - Erasing on schema change

    /// Whether the schema differs from the one that the applied migrations
    /// build in a fresh in-memory database, or unknown migrations were
    /// applied.
    private func needsErasure(_ db: Database, configuration: Configuration) throws -> Bool {
        let applied = try appliedIdentifiers(db)
        if !applied.isSubset(of: migrations) { return true }
        guard let lastApplied = migrations.lastIndex(where: applied.contains) else { return false }
        var memoryConfiguration = configuration
        memoryConfiguration.readonly = false
        memoryConfiguration.label = "CipherDB.DatabaseMigrator.reference"
        let reference = try DatabaseQueue(configuration: memoryConfiguration)
        let referenceSchema = try reference.writeWithoutTransaction { referenceDB in
            try migrate(referenceDB, upTo: lastApplied)
            return try schemaSnapshot(referenceDB)
        }
        return try schemaSnapshot(db) != referenceSchema
            || appliedMigrations(db) != Array(migrations[...lastApplied])
    }

    /// The schema objects, comparable across databases.
    private func schemaSnapshot(_ db: Database) throws -> Set<[String?]> {
        let rows = try Row.fetchAll(db, sql: """
            SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'
            """)
        return Set(rows.map { row in [row["type"], row["name"], row["tbl_name"], row["sql"]] })
    }

    // MARK: - Introspection

    /// Every identifier recorded in the database, known or not.
    public func appliedIdentifiers(_ db: Database) throws -> Set<String> {
        guard try db.tableExists("grdb_migrations") else { return [] }
        return try Set(String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
    }

    /// The registered migrations applied to the database, in order.
    public func appliedMigrations(_ db: Database) throws -> [String] {
        let applied = try appliedIdentifiers(db)
        return migrations.filter(applied.contains)
    }

    /// The registered migrations applied to the database and committed,
    /// in order (the same as ``appliedMigrations(_:)`` outside a
    /// migration's transaction).
    public func completedMigrations(_ db: Database) throws -> [String] {
        try appliedMigrations(db)
    }

    /// Whether every registered migration was applied.
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
