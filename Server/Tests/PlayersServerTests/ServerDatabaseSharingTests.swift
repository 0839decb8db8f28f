import CipherDB
import Foundation
import TestSupport
import Testing

/// The server's database file opened by another program while the server
/// runs (an operator's `sqlcipher` shell, a script): as that program
/// closes it, it must see that the server still uses the file.
@Suite struct ServerDatabaseSharingTests {
    @Test func anotherProgramClosingTheDatabaseLeavesTheServersWALAndPlayersInPlace() throws {
        let server = try ServerProcess(["--database", "server.db", "--seed", "5"], environment: ServerDatabase.environment)
        // Reads open the pool's readers: connections of their own to the file.
        for _ in 0..<3 { #expect(try server.request("GET", "/v1/sync/rows").status == 200) }
        // This test's process is the other program.
        #expect(try ServerDatabase.playerCount(server.path("server.db")) == 5)
        #expect(FileManager.default.fileExists(atPath: server.path("server.db-wal")),
                "the other program took the database for unused, and deleted the WAL that the server writes to")
        #expect(try server.request("POST", "/v1/rows/player", headers: jsonHeaders, body: playerJSON(1)).status == 201)
        #expect(try ServerDatabase.playerCount(server.path("server.db")) == 6)
        #expect(try server.stop(SIGTERM) == 0)
        #expect(try ServerDatabase.playerCount(server.path("server.db")) == 6)
    }
}
