import CipherDB
import Foundation
import Players
import TestSupport
import Testing

/// Databases from elsewhere (a backup to restore, a plaintext database to
/// encrypt) are used only when their schema is the players schema: one
/// trigger, view or virtual table more, and they are refused before
/// anything in them runs, with the database unchanged.
@Suite struct ForeignDatabaseTests {
    /// A backup of a sandbox's database, with `sql` run in it.
    func tamperedBackup(_ sandbox: CLISandbox, _ sql: String) throws -> String {
        let backup = sandbox.root.appendingPathComponent("backup.db").path
        #expect(try sandbox.run(["backup", "--quiet", backup]).status == 0)
        let queue = try sandbox.keyedQueue(at: backup)
        try queue.write { db in try db.execute(sql: sql) }
        try queue.close()
        return backup
    }

    static let additions = [
        "CREATE TRIGGER wipe AFTER INSERT ON player BEGIN DELETE FROM player; END",
        "CREATE VIEW best AS SELECT * FROM player WHERE score > 10",
        "CREATE VIRTUAL TABLE notes USING fts3(content)",
        "CREATE TABLE extra (id INTEGER PRIMARY KEY)",
        "CREATE INDEX player_on_name ON player(name)",
    ]

    @Test(arguments: additions)
    func aBackupWithMoreThanThePlayersSchemaIsNotRestored(_ addition: String) throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["init"]).status == 0)
        #expect(try sandbox.run(["randomize"]).status == 0)
        let backup = try tamperedBackup(sandbox, addition)
        let before = sandbox.databaseSnapshot()

        let result = try sandbox.run(["restore", "--quiet", backup])
        #expect(result.status == 1)
        #expect(result.error.contains("\(backup) is not a players database: it holds"), "\(result.error)")
        #expect(result.error.contains("which the players schema does not have (it was not used)"))
        #expect(sandbox.databaseSnapshot() == before)
    }

    @Test func aBackupOfThePlayersSchemaIsRestored() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["init"]).status == 0)
        #expect(try sandbox.run(["randomize"]).status == 0)
        // ANALYZE adds SQLite's statistics table, which is part of any schema.
        let backup = try tamperedBackup(sandbox, "ANALYZE")
        let result = try sandbox.run(["restore", "--quiet", backup])
        #expect(result.status == 0, "\(result.error)")
    }

    @Test func aPlaintextDatabaseWithATriggerIsNotEncrypted() throws {
        let sandbox = try CLISandbox()
        let source = sandbox.root.appendingPathComponent("app.sqlite").path
        let queue = try DatabaseQueue(path: source)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL, "score" INTEGER NOT NULL);
                CREATE TRIGGER wipe AFTER INSERT ON player BEGIN DELETE FROM player; END;
                """)
        }
        try queue.close()
        let sourceBytes = try Data(contentsOf: URL(fileURLWithPath: source))

        let result = try sandbox.run(["encrypt", source])
        #expect(result.status == 1)
        #expect(result.error.contains("is not a players database: it holds trigger wipe"), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.databasePath))
        #expect(!FileManager.default.fileExists(atPath: sandbox.keyPath))
        #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == sourceBytes)
    }
}
