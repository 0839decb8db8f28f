import CipherDB
import Foundation
import TestSupport
import Testing

/// A file that is not an encrypted players database is named for what it
/// is, with what to run instead (exit 3), and is left byte for byte as it
/// was: it is never migrated into a mixture of two schemas.
@Suite struct DatabaseKindTests {
    @Test func aPlaintextSQLiteFileIsNamedWithTheCommandThatImportsIt() async throws {
        let sandbox = try CLISandbox()
        let path = sandbox.root.appendingPathComponent("plain.db").path
        let plaintext = try DatabaseQueue(path: path)
        // The players table of a GRDB app made from the seeds.
        try await plaintext.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, score INTEGER NOT NULL)")
        }
        try plaintext.close()
        let before = databaseFileBytes(path)

        // No key is needed to say so: there is none in this home.
        let result = try await sandbox.run(["list", "--database", path])
        #expect(result.status == 3)
        #expect(result.error == "players: \(path) is a plaintext SQLite database, not an encrypted players database: "
            + "import its players into a new encrypted database with 'players encrypt \(path) --database NEW.db'\n")
        #expect(databaseFileBytes(path) == before)
        // The advice works.
        let new = sandbox.root.appendingPathComponent("new.db").path
        let encrypt = try await sandbox.run(["encrypt", path, "--database", new])
        #expect(encrypt.status == 0, "\(encrypt.error)")
    }

    /// `players encrypt` is suggested only for a file it would import:
    /// another application's plaintext database gets why it cannot be,
    /// from every command (`verify` too), and keeps its bytes.
    @Test func anotherApplicationsPlaintextDatabaseIsNotSentToEncrypt() async throws {
        let sandbox = try CLISandbox()
        let path = sandbox.root.appendingPathComponent("notes.db").path
        let plaintext = try DatabaseQueue(path: path)
        try await plaintext.write { db in try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT)") }
        try plaintext.close()
        let before = databaseFileBytes(path)

        for command in [["list"], ["verify"], ["add", "--name", "Arthur", "--score", "1"]] {
            let result = try await sandbox.run(command + ["--database", path])
            #expect(result.status == 3, "\(command): \(result.error)")
            #expect(result.error.hasPrefix("players: \(path) is a plaintext SQLite database, not an encrypted players database, "
                + "and 'players encrypt' cannot import it ("), "\(command): \(result.error)")
            #expect(result.error.hasSuffix("): give the path of an encrypted players database\n"), "\(command): \(result.error)")
        }
        let verify = try await sandbox.run(["verify", "--database", path])
        #expect(!verify.error.contains("passphrase or key is wrong"))
        #expect(databaseFileBytes(path) == before)
    }

    @Test func anotherApplicationsEncryptedDatabaseIsNamedWithItsTables() async throws {
        let sandbox = try CLISandbox()
        try await sandbox.runChecked(["init"])
        let path = sandbox.root.appendingPathComponent("notes.db").path
        let other = try sandbox.keyedQueue(at: path)
        try await other.write { db in
            try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT); CREATE TABLE tag (name TEXT)")
        }
        try other.close()
        let before = databaseFileBytes(path)

        let result = try await sandbox.run(["add", "--database", path, "--name", "Arthur", "--score", "1"])
        #expect(result.status == 3)
        #expect(result.error.hasPrefix("players: \(path) is an encrypted SQLite database of another application (tables note, tag), not a players database:"),
                "\(result.error)")
        #expect(result.error.hasSuffix("the file was not changed\n"))
        #expect(databaseFileBytes(path) == before)
    }

    @Test func aPlayersServerDatabaseIsNamedWithTheCommandThatReadsItsPlayers() async throws {
        let sandbox = try CLISandbox()
        try await sandbox.runChecked(["init"])
        let path = sandbox.root.appendingPathComponent("server.db").path
        try await makeServerDatabase(at: path, keyFile: sandbox.keyPath)
        let before = databaseFileBytes(path)

        let result = try await sandbox.run(["list", "--database", path])
        #expect(result.status == 3)
        #expect(result.error == "players: \(path) is a players-server database, not a players database: 'players' keeps its own "
            + "(--database), and gets the server's players with 'players sync'; the file was not changed\n")
        #expect(databaseFileBytes(path) == before)
    }

    /// Starts the built `players-server` on a new database until it
    /// listens, then stops it: the database it leaves is a real one.
    func makeServerDatabase(at path: String, keyFile: String) async throws {
        let output = URL(fileURLWithPath: path + ".out")
        guard FileManager.default.createFile(atPath: output.path, contents: nil) else { throw POSIXError(.EIO) }
        let server = ChildProcess()
        server.executableURL = try BuiltProducts.url("players-server")
        server.arguments = ["--database", path, "--key-file", keyFile, "--seed", "3", "--port", "0"]
        server.standardOutput = try FileHandle(forWritingTo: output)
        server.standardError = FileHandle.nullDevice
        try server.run()
        try await onThread {
            defer {
                server.terminate()
                server.waitUntilExit()
            }
            try waitUntilBlocking("players-server to listen") {
                guard server.isRunning else { throw TestFailure("players-server exited before listening.") }
                return (try? String(contentsOf: output, encoding: .utf8))?.contains("listening on") == true
            }
        }
    }
}
