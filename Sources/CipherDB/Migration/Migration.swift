/// A registered migration of a ``DatabaseMigrator``.
struct Migration: Sendable {
    /// How foreign keys are checked while a migration runs.
    enum ForeignKeyChecks: Sendable {
        /// Off during the migration, checked before the commit.
        case deferred
        /// Enforced statement by statement.
        case immediate
        /// Off during the migration, never checked
        /// (``DatabaseMigrator/disablingDeferredForeignKeyChecks()``).
        case disabled
    }

    typealias Migrate = @Sendable (_ db: Database, _ appliedMergedIdentifiers: Set<String>) throws -> Void

    let identifier: String
    /// The identifiers of former migrations that this one replaces.
    let mergedIdentifiers: Set<String>
    let foreignKeyChecks: ForeignKeyChecks
    private let migrate: Migrate

    init(identifier: String, mergedIdentifiers: Set<String>, foreignKeyChecks: ForeignKeyChecks, migrate: @escaping Migrate) {
        self.identifier = identifier
        self.mergedIdentifiers = mergedIdentifiers
        self.foreignKeyChecks = foreignKeyChecks
        self.migrate = migrate
    }

    /// Runs the migration in its own transaction, and records it in place
    /// of the merged migrations it replaces.
    ///
    /// The migration sees the schema as SQLite knows it, without the
    /// schema source: a migration must not depend on it.
    func run(_ db: Database, appliedMergedIdentifiers: Set<String>) throws {
        try db.withSchemaSource(nil) {
            // With foreign keys off on the connection, there is nothing to
            // defer nor to disable.
            guard try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true, foreignKeyChecks != .immediate else {
                try runInTransaction(db, appliedMergedIdentifiers: appliedMergedIdentifiers, checksForeignKeys: false)
                return
            }
            // The recipe of <https://www.sqlite.org/lang_altertable.html#otheralter>:
            // PRAGMA foreign_keys has no effect inside a transaction, so it
            // is switched off before, and back on after.
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            let result = Result {
                try runInTransaction(db, appliedMergedIdentifiers: appliedMergedIdentifiers,
                                     checksForeignKeys: foreignKeyChecks == .deferred)
            }
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            try result.get()
        }
    }

    /// Forgets the merged migrations that were applied, once this one is.
    func deleteMergedIdentifiers(_ db: Database) throws {
        guard !mergedIdentifiers.isEmpty else { return }
        try db.execute(literal: "DELETE FROM grdb_migrations WHERE identifier IN \(mergedIdentifiers.sorted())")
    }

    private func runInTransaction(_ db: Database, appliedMergedIdentifiers: Set<String>, checksForeignKeys: Bool) throws {
        try db.inTransaction(.immediate) {
            try migrate(db, appliedMergedIdentifiers)
            try deleteMergedIdentifiers(db)
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [identifier])
            if checksForeignKeys {
                try db.checkForeignKeys()
            }
            return .commit
        }
    }
}
