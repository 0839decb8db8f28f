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
    func tamperedBackup(_ sandbox: CLISandbox, _ sql: String) async throws -> String {
        let backup = sandbox.root.appendingPathComponent("backup.db").path
        await #expect(try sandbox.run(["backup", "--quiet", backup]).status == 0)
        let queue = try sandbox.keyedQueue(at: backup)
        try await queue.write { db in try db.execute(sql: sql) }
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
    func aBackupWithMoreThanThePlayersSchemaIsNotRestored(_ addition: String) async throws {
        let sandbox = try CLISandbox()
        await #expect(try sandbox.run(["init"]).status == 0)
        await #expect(try sandbox.run(["randomize"]).status == 0)
        let backup = try await tamperedBackup(sandbox, addition)
        let before = sandbox.databaseSnapshot()

        let result = try await sandbox.run(["restore", "--quiet", backup])
        #expect(result.status == 1)
        #expect(result.error.contains("\(backup) is not a players database: it holds"), "\(result.error)")
        #expect(result.error.contains("which the players schema does not have (it was not used)"))
        #expect(sandbox.databaseSnapshot() == before)
    }

    @Test func aBackupOfThePlayersSchemaIsRestored() async throws {
        let sandbox = try CLISandbox()
        await #expect(try sandbox.run(["init"]).status == 0)
        await #expect(try sandbox.run(["randomize"]).status == 0)
        // ANALYZE adds SQLite's statistics table, which is part of any schema.
        let backup = try await tamperedBackup(sandbox, "ANALYZE")
        let result = try await sandbox.run(["restore", "--quiet", backup])
        #expect(result.status == 0, "\(result.error)")
    }

    /// Runs `players encrypt` on a plaintext database made of the players
    /// table of a GRDB app and `sql`, expects it refused with exit 1, and
    /// checks that nothing was created and the source is unchanged;
    /// returns the error output.
    func refusedEncryption(of sql: String) async throws -> (error: String, source: String) {
        let sandbox = try CLISandbox()
        let source = sandbox.root.appendingPathComponent("app.sqlite").path
        let queue = try DatabaseQueue(path: source)
        try await queue.write { db in
            try db.execute(sql: """
                CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL, "score" INTEGER NOT NULL);
                \(sql)
                """)
        }
        try queue.close()
        let sourceBytes = try Data(contentsOf: URL(fileURLWithPath: source))

        let result = try await sandbox.run(["encrypt", source])
        #expect(result.status == 1)
        #expect(!FileManager.default.fileExists(atPath: URL(fileURLWithPath: sandbox.databasePath).deletingLastPathComponent().path))
        #expect(!FileManager.default.fileExists(atPath: sandbox.keyPath))
        #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == sourceBytes)
        return (result.error, source)
    }

    @Test func aPlaintextDatabaseWithATriggerIsNotEncrypted() async throws {
        let (error, _) = try await refusedEncryption(of: "CREATE TRIGGER wipe AFTER INSERT ON player BEGIN DELETE FROM player; END;")
        #expect(error.contains("is not a players database: it holds trigger wipe"), "\(error)")
    }

    /// Rows that a GRDB app (or any SQLite client) could have stored, and
    /// that no way into a players database accepts.
    static let badPlayers: [(values: String, problem: String)] = [
        ("'Bob' || char(27) || '[2J', 3", "its name contains a control character (U+001B)"),
        ("CAST(x'42ff6f62' AS TEXT), 3", "its name is not UTF-8 text"),
        ("x'426f62', 3", "its name is not UTF-8 text"),
        ("'   ', 3", "its name is empty"),
        ("'\(String(repeating: "a", count: 101))', 3", "its name is longer than 100 characters"),
        ("'Bob', 'many'", "its score is not an integer"),
        ("'Bob', 2.5", "its score is not an integer"),
        ("'Bob', -1", "its score is -1, outside"),
    ]

    @Test(arguments: badPlayers)
    func aPlaintextDatabaseWithAnInvalidPlayerIsNotEncrypted(_ bad: (values: String, problem: String)) async throws {
        let (error, source) = try await refusedEncryption(of: """
            INSERT INTO player (name, score) VALUES ('Alice', 1);
            INSERT INTO player (name, score) VALUES (\(bad.values));
            """)
        #expect(error.contains("player 2 of \(source) cannot be imported: \(bad.problem)"), "\(error)")
        #expect(error.contains("correct it in \(source) and try again (nothing was created)"))
    }
}
