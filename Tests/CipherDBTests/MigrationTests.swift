import CSQLCipher
import CipherDB
import Foundation
import Testing

@Suite struct MigrationTests {
    struct MigrationFailure: Error {}

    func makeMigrator(log: TraceLog = TraceLog()) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            log.append("v1")
            try db.create(table: "team") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
        }
        migrator.registerMigration("v2") { db in
            log.append("v2")
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("team", onDelete: .cascade)
            }
        }
        return migrator
    }

    @Test(arguments: DatabaseKind.allCases)
    func migrationsApplyOnceAndInOrder(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        let log = TraceLog()
        let migrator = makeMigrator(log: log)
        try migrator.migrate(fixture.writer)
        try migrator.migrate(fixture.writer)
        #expect(log.lines == ["v1", "v2"])
        try fixture.writer.read { (db) throws in
            #expect(try migrator.appliedMigrations(db) == ["v1", "v2"])
            #expect(try migrator.completedMigrations(db) == ["v1", "v2"])
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try !migrator.hasBeenSuperseded(db))
            #expect(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") == ["v1", "v2"])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func migrateUpToATarget(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        let migrator = makeMigrator()
        try migrator.migrate(fixture.writer, upTo: "v1")
        try fixture.writer.read { (db) throws in
            #expect(try migrator.appliedMigrations(db) == ["v1"])
            #expect(try !migrator.hasCompletedMigrations(db))
            #expect(try !db.tableExists("player"))
        }
        #expect(throws: DatabaseMigratorError.self) { try migrator.migrate(fixture.writer, upTo: "v9") }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aFailingMigrationLeavesTheDatabaseAtThePreviousMigration(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        var migrator = makeMigrator()
        migrator.registerMigration("v3") { db in
            try db.execute(sql: "CREATE TABLE doomed (id INTEGER)")
            try db.execute(sql: "INSERT INTO team (name) VALUES ('half-done')")
            throw MigrationFailure()
        }
        #expect(throws: MigrationFailure.self) { try migrator.migrate(fixture.writer) }
        try fixture.writer.read { (db) throws in
            #expect(try migrator.appliedMigrations(db) == ["v1", "v2"])
            #expect(try !db.tableExists("doomed"))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team") == 0)
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aForeignKeyViolationFailsADeferredMigration(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        var migrator = makeMigrator()
        migrator.registerMigration("v3") { db in
            // Allowed while the migration runs, refused before commit.
            try db.execute(sql: "INSERT INTO player (teamId) VALUES (42)")
        }
        do {
            try migrator.migrate(fixture.writer)
            Issue.record("expected a foreign key error")
        } catch let error as DatabaseError {
            #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
            #expect(error.message == "FOREIGN KEY constraint violation - from player(teamId) to team(id), in [id:1 teamId:42]")
        }
        try fixture.writer.read { (db) throws in
            #expect(try migrator.appliedMigrations(db) == ["v1", "v2"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
        }
    }

    @Test func deferredChecksAllowTableRebuilds() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = makeMigrator()
        migrator.registerMigration("v3") { db in
            // The table-rebuild recipe: the new player table references
            // team while team is rebuilt.
            try db.execute(sql: "INSERT INTO team (name) VALUES ('red')")
            try db.execute(sql: "INSERT INTO player (teamId) VALUES (1)")
            try db.create(table: "newTeam") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull()
            }
            try db.execute(sql: "INSERT INTO newTeam (id, title) SELECT id, name FROM team")
            try db.drop(table: "team")
            try db.rename(table: "newTeam", to: "team")
        }
        try migrator.migrate(dbQueue)
        try dbQueue.read { (db) throws in
            #expect(try db.columns(in: "team").map(\.name) == ["id", "title"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 1)
        }
    }

    @Test func immediateChecksFailAtTheStatement() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = makeMigrator()
        migrator.registerMigration("v3", foreignKeyChecks: .immediate) { db in
            try db.execute(sql: "INSERT INTO player (teamId) VALUES (42)")
        }
        #expect(throws: DatabaseError.self) { try migrator.migrate(dbQueue) }
        #expect(try dbQueue.read { try migrator.appliedMigrations($0) } == ["v1", "v2"])
    }

    @Test(arguments: DatabaseKind.allCases)
    func unknownMigrationsAreReportedAndNothingChanges(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        var newer = makeMigrator()
        newer.registerMigration("v3") { db in try db.execute(sql: "CREATE TABLE extra (id INTEGER)") }
        try newer.migrate(fixture.writer)

        var older = DatabaseMigrator()
        older.registerMigration("v1") { _ in }
        older.registerMigration("v2") { _ in }
        older.registerMigration("v2b") { db in try db.execute(sql: "CREATE TABLE other (id INTEGER)") }
        #expect(try fixture.writer.read { try older.hasBeenSuperseded($0) })
        do {
            try older.migrate(fixture.writer)
            Issue.record("expected an error")
        } catch let error as DatabaseMigratorError {
            #expect(error.description.contains("newer version"))
            #expect(error.description.contains("v3"))
        }
        #expect(try fixture.writer.read { try $0.tableExists("other") } == false)
    }

    @Test(arguments: DatabaseKind.allCases)
    func eraseDatabaseOnSchemaChange(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        var first = DatabaseMigrator()
        first.registerMigration("v1") { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
            }
        }
        try first.migrate(fixture.writer)
        try fixture.writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }

        // Same migrations: nothing is erased.
        var same = first
        same.eraseDatabaseOnSchemaChange = true
        try same.migrate(fixture.writer)
        #expect(try fixture.writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 1)

        // The migration "v1" was edited during development: erase and migrate again.
        var edited = DatabaseMigrator()
        edited.eraseDatabaseOnSchemaChange = true
        edited.registerMigration("v1") { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
                t.column("score", .integer)
            }
        }
        try edited.migrate(fixture.writer)
        try fixture.writer.read { (db) throws in
            #expect(try db.columns(in: "player").map(\.name) == ["id", "name", "score"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
            #expect(try edited.appliedMigrations(db) == ["v1"])
        }
    }

    @Test func databasePreparedByGRDBIsRecognised() throws {
        let dbQueue = try DatabaseQueue()
        // What GRDB leaves in a database it migrated.
        try dbQueue.write { (db) throws in
            try db.execute(sql: """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1');
                CREATE TABLE team (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL);
                """)
        }
        let log = TraceLog()
        try makeMigrator(log: log).migrate(dbQueue)
        #expect(log.lines == ["v2"])
    }
    @Test(arguments: DatabaseKind.allCases)
    func aMigrationInsertedBetweenAppliedOnesRunsAndCompletesTheList(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        var released = DatabaseMigrator()
        released.registerMigration("1") { _ in }
        released.registerMigration("3") { _ in }
        try released.migrate(fixture.writer)

        var merged = DatabaseMigrator()
        merged.registerMigration("1") { _ in }
        merged.registerMigration("2") { db in try db.execute(sql: "CREATE TABLE two (id INTEGER)") }
        merged.registerMigration("3") { _ in }
        try fixture.writer.read { (db) throws in
            #expect(try merged.appliedMigrations(db) == ["1", "3"])
            #expect(try merged.completedMigrations(db) == ["1"])
            #expect(try !merged.hasCompletedMigrations(db))
        }
        try merged.migrate(fixture.writer)
        try fixture.writer.read { (db) throws in
            #expect(try merged.completedMigrations(db) == ["1", "2", "3"])
            #expect(try db.tableExists("two"))
            #expect(try released.hasBeenSuperseded(db))
            #expect(try released.hasCompletedMigrations(db))
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aMergingMigrationRunsOnceWithTheMergedOnesItFinds(_ kind: DatabaseKind) throws {
        var old = DatabaseMigrator()
        for name in ["a", "b", "c"] {
            old.registerMigration(name) { db in try db.execute(sql: "CREATE TABLE \(name) (id INTEGER)") }
        }
        let runs = TraceLog()
        var new = DatabaseMigrator()
        new.registerMigration("a") { db in try db.execute(sql: "CREATE TABLE a (id INTEGER)") }
        new.registerMigration("c", merging: ["b", "c"]) { db, appliedIDs in
            runs.append(appliedIDs.sorted().joined(separator: ","))
            if !appliedIDs.contains("b") { try db.execute(sql: "CREATE TABLE b (id INTEGER)") }
            try db.execute(sql: "CREATE TABLE c (id INTEGER)")
        }
        for target in ["a", "b", "c"] {
            let fixture = try DatabaseFixture(kind)
            try old.migrate(fixture.writer, upTo: target)
            try new.migrate(fixture.writer)
            try fixture.writer.read { (db) throws in
                #expect(try new.appliedIdentifiers(db) == ["a", "c"])
                #expect(try ["a", "b", "c"].allSatisfy { try db.tableExists($0) })
                #expect(try !new.hasBeenSuperseded(db))
            }
        }
        // After "a": nothing merged; after "b": "b"; after "c": not run.
        #expect(runs.lines == ["", "b"])
    }

    @Test func disablingDeferredChecksLetsViolationsThrough() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = makeMigrator().disablingDeferredForeignKeyChecks()
        migrator.registerMigration("v3") { db in
            try db.execute(sql: "INSERT INTO player (teamId) VALUES (42)")
        }
        try migrator.migrate(dbQueue)
        try dbQueue.read { (db) throws in
            #expect(throws: DatabaseError.self) { try db.checkForeignKeys() }
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
        }
    }

    @Test func hasSchemaChangesComparesWithTheSchemaOfTheMigrations() throws {
        let dbQueue = try DatabaseQueue()
        let migrator = makeMigrator()
        #expect(try dbQueue.read(migrator.hasSchemaChanges) == false)
        try migrator.migrate(dbQueue, upTo: "v1")
        #expect(try dbQueue.read(migrator.hasSchemaChanges) == false)
        // SQLite's own tables do not count.
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('red'); ANALYZE") }
        #expect(try dbQueue.read(migrator.hasSchemaChanges) == false)
        try dbQueue.write { db in try db.execute(sql: "CREATE INDEX team_name ON team(name)") }
        #expect(try dbQueue.read(migrator.hasSchemaChanges))
    }

    @Test func hasSchemaChangesRunsOnATargetQueue() throws {
        var configuration = Configuration()
        configuration.targetQueue = DispatchQueue(label: "target")
        let dbQueue = try DatabaseQueue(configuration: configuration)
        var migrator = makeMigrator()
        migrator.eraseDatabaseOnSchemaChange = true
        try migrator.migrate(dbQueue, upTo: "v1")
        try migrator.migrate(dbQueue)
        #expect(try dbQueue.read(migrator.hasSchemaChanges) == false)
    }

    /// GRDB's issue 931: the schema comparison of
    /// `eraseDatabaseOnSchemaChange` opens a reference database with the
    /// configuration of the migrated one, so its `prepareDatabase` must be
    /// able to control a file.
    @Test func schemaComparisonAcceptsFileControlInPrepareDatabase() throws {
        var configuration = encryptedConfiguration()
        configuration.prepareDatabase { db in
            var persistWAL: CInt = 0
            let code = sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, &persistWAL)
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
        }
        let fixture = try DatabaseFixture(.queue, configuration: configuration)
        var migrator = makeMigrator()
        migrator.eraseDatabaseOnSchemaChange = true
        try migrator.migrate(fixture.writer)
        try fixture.writer.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('red')") }
        try migrator.migrate(fixture.writer)
        #expect(try fixture.writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM team") } == 1)
    }

    @Test func asyncMigrateGivesTheConnectionToTheCompletion() async throws {
        let dbQueue = try DatabaseQueue()
        let migrator = makeMigrator()
        let tables = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[String], Error>) in
            migrator.asyncMigrate(dbQueue) { result in
                continuation.resume(with: Result {
                    try String.fetchAll(result.get(), sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
                })
            }
        }
        #expect(tables == ["grdb_migrations", "player", "sqlite_sequence", "team"])
    }
}
