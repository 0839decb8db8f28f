import CipherDB
import Foundation
import TestSupport
import Testing

/// What `players-server` says when it cannot start: one line on standard
/// error, `players-server: …`, that says what failed and what to do, exit
/// status 1; a database it refuses keeps every byte; no secret is shown.
@Suite struct StartupFailureTests {
    /// Runs the server, which must fail at start, in `folder`.
    func failure(_ arguments: [String], environment: [String: String] = ServerDatabase.environment, in folder: TemporaryFolder) async throws -> String {
        let result = try await ServerProcess.run(arguments + ["--port", "0"], environment: environment, in: folder)
        #expect(result.status == 1, "\(arguments): \(result.error)")
        #expect(result.output.isEmpty, "\(arguments)")
        #expect(!result.error.contains(ServerDatabase.passphrase), "\(arguments)")
        return result.error
    }

    @Test func aPortInUseIsNamed() async throws {
        let server = try ServerProcess([])
        let result = try await ServerProcess.run(["--port", String(server.port)], in: server.folder)
        #expect(result.status == 1)
        #expect(result.error == "players-server: port \(server.port) is already in use: stop the other process or choose another --port\n")
        #expect(try server.stop() == 0)
    }

    @Test func aHostThatIsNotAnAddressOfThisMachineIsNamed() async throws {
        let folder = try TemporaryFolder()
        // TEST-NET-1 (RFC 5737): never an address of this machine.
        let error = try await failure(["--host", "192.0.2.1", "--insecure-no-auth"], in: folder)
        #expect(error == "players-server: cannot listen on 192.0.2.1: it is not an address of this machine: give one of its addresses with --host\n")
    }

    @Test func aWrongKeyLeavesTheDatabaseAsItWas() async throws {
        let server = try ServerProcess(["--database", "server.db", "--seed", "3"], environment: ServerDatabase.environment)
        #expect(try server.stop() == 0)
        let before = databaseFileBytes(server.path("server.db"))
        let error = try await failure(["--database", "server.db"], environment: ["PLAYERS_PASSPHRASE": "not the key"], in: server.folder)
        #expect(error == "players-server: cannot open server.db: wrong key or not a players-server database: give the key it was created with, or another --database\n")
        #expect(!error.contains("not the key"))
        #expect(databaseFileBytes(server.path("server.db")) == before)
    }

    @Test func aPlayersDatabaseIsNamedAndKeepsItsBytes() async throws {
        let folder = try TemporaryFolder()
        let result = try await CLISandbox().run(["init", "--database", folder.path("client.db")], environment: ServerDatabase.environment)
        #expect(result.status == 0, "\(result.error)")
        let before = databaseFileBytes(folder.path("client.db"))
        let error = try await failure(["--database", "client.db"], in: folder)
        #expect(error == "players-server: client.db is a players database (the 'players' command line's), not a players-server database: give the server its own --database (a new path creates one); the file was not changed\n")
        #expect(databaseFileBytes(folder.path("client.db")) == before)
    }

    @Test func aPlaintextSQLiteFileIsNamedAndKeepsItsBytes() async throws {
        let folder = try TemporaryFolder()
        let plaintext = try DatabaseQueue(path: folder.path("plain.db"))
        try await plaintext.write { db in try db.execute(sql: "CREATE TABLE note (text TEXT)") }
        try plaintext.close()
        let before = databaseFileBytes(folder.path("plain.db"))
        let error = try await failure(["--database", "plain.db"], in: folder)
        #expect(error == "players-server: plain.db is a plaintext SQLite database, not an encrypted players-server database: give the server its own --database (a new path creates one); the file was not changed\n")
        #expect(databaseFileBytes(folder.path("plain.db")) == before)
    }

    @Test func anotherApplicationsDatabaseIsNamedWithItsTables() async throws {
        let folder = try TemporaryFolder()
        let other = try ServerDatabase.open(folder.path("other.db"))
        try await other.write { db in
            try db.execute(sql: "CREATE TABLE note (text TEXT); CREATE TABLE tag (name TEXT)")
        }
        try other.close()
        let before = databaseFileBytes(folder.path("other.db"))
        let error = try await failure(["--database", "other.db"], in: folder)
        #expect(error == "players-server: other.db is an encrypted SQLite database of another application (tables note, tag), not a players-server database: give the server its own --database (a new path creates one); the file was not changed\n")
        #expect(databaseFileBytes(folder.path("other.db")) == before)
    }

    @Test func aMissingKeyFileIsNamed() async throws {
        let folder = try TemporaryFolder()
        let error = try await failure(["--database", "server.db", "--key-file", "missing.key"], environment: [:], in: folder)
        #expect(error == "players-server: cannot read the key file missing.key: No such file or directory\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path("server.db")))
    }

    @Test func aMissingFolderIsNamed() async throws {
        let folder = try TemporaryFolder()
        let error = try await failure(["--database", "nowhere/server.db"], in: folder)
        #expect(error == "players-server: cannot create the database nowhere/server.db: the folder nowhere does not exist: create it, or give another --database\n")
    }

    @Test func aFolderThatCannotBeWrittenIsNamed() async throws {
        let folder = try TemporaryFolder()
        // sysfs refuses new files, even to root.
        let error = try await failure(["--database", "/sys/players-server.db"], in: folder)
        #expect(error == "players-server: cannot create the database /sys/players-server.db: Permission denied: give a --database in a folder that the server can write\n")
    }
}
