import CipherDB
import Foundation
import TestSupport
import Testing

/// `DatabaseFileHeader`: the first bytes of a database file, read through
/// SQLite's file handles, which keep the locks of the process's
/// connections to the file.
@Suite struct DatabaseFileHeaderTests {
    static let plaintextHeader = Array("SQLite format 3\u{0}".utf8)

    @Test func readsTheFirstBytesOfAPlaintextDatabase() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("plain.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "CREATE TABLE item (value TEXT)") }
        try queue.close()
        #expect(DatabaseFileHeader.read(atPath: path, count: 16) == Self.plaintextHeader)
    }

    @Test func readsTheSaltOfAnEncryptedDatabase() throws {
        let fixture = try DatabaseFixture(.queue, configuration: encryptedConfiguration("header secret"))
        try fixture.writer.write { db in try db.execute(sql: "CREATE TABLE item (value TEXT)") }
        try fixture.writer.close()
        let header = try #require(DatabaseFileHeader.read(atPath: fixture.path, count: 16))
        #expect(header != Self.plaintextHeader)
        #expect(header == Array(try fixture.fileBytes().prefix(16)))
    }

    @Test func hasNoHeaderForAMissingOrShorterFile() throws {
        let folder = try TemporaryFolder()
        #expect(DatabaseFileHeader.read(atPath: folder.path("missing.sqlite"), count: 16) == nil)
        let short = folder.path("short.sqlite")
        try Data("SQLite".utf8).write(to: URL(fileURLWithPath: short))
        #expect(DatabaseFileHeader.read(atPath: short, count: 16) == nil)
    }

    @Test func readingTheHeaderOfADatabaseInUseKeepsTheLocksOfItsConnections() async throws {
        let fixture = try DatabaseFixture(.pool, configuration: encryptedConfiguration("header secret"))
        try await fixture.writer.write { db in try db.execute(sql: "CREATE TABLE item (value TEXT)") }
        #expect(DatabaseFileHeader.read(atPath: fixture.path, count: 16) != nil)
        try await openAndCloseInAnotherProcess(fixture.path, passphrase: "header secret")
        #expect(FileManager.default.fileExists(atPath: fixture.path + "-wal"), "the other process took the pool's database for unused")
    }
}
