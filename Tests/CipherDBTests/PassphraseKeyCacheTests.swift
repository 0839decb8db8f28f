import CipherDB
import Foundation
import Synchronization
import TestSupport
import Testing

/// `DatabaseKeySource.configure`: a passphrase's key is derived once per
/// file for all the connections of a configuration, and the files are the
/// ones SQLCipher makes with the passphrase itself.
@Suite struct PassphraseKeyCacheTests {
    static let passphrase = "cache passphrase"

    /// A configuration keyed by `passphrase` through `cache`.
    func cachedConfiguration(_ cache: PassphraseKeyCache, passphrase: @escaping @Sendable () -> String = { passphrase }) -> Configuration {
        var configuration = Configuration()
        DatabaseKeySource.passphrase { Data(passphrase().utf8) }.configure(&configuration, cache: cache)
        return configuration
    }

    /// A file made with `usePassphrase`, as any SQLCipher program makes it,
    /// holding one row.
    func makeFile(at path: String, passphrase: String = passphrase) throws {
        let queue = try DatabaseQueue(path: path, configuration: encryptedConfiguration(passphrase))
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE item (value TEXT)")
            try db.execute(sql: "INSERT INTO item VALUES ('first')")
        }
        try queue.close()
    }

    /// Reads through a new reader each time: the pool's readers are closed
    /// after every read.
    func readThroughNewReaders(_ pool: DatabasePool, times: Int) throws -> [[String]] {
        try (0..<times).map { _ in
            defer { pool.invalidateReadOnlyConnections() }
            return try pool.read { db in try String.fetchAll(db, sql: "SELECT value FROM item ORDER BY rowid") }
        }
    }

    @Test func aPoolDerivesTheKeyOfAnExistingFileOnceForAllItsConnections() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("existing.sqlite")
        try makeFile(at: path)
        let cache = PassphraseKeyCache()
        let pool = try DatabasePool(path: path, configuration: cachedConfiguration(cache))
        try pool.write { db in try db.execute(sql: "INSERT INTO item VALUES ('second')") }
        #expect(try readThroughNewReaders(pool, times: 3) == Array(repeating: ["first", "second"], count: 3))
        try pool.close()
        #expect(cache.derivationCount == 1)

        // What the cached key wrote opens with the passphrase itself.
        let queue = try DatabaseQueue(path: path, configuration: encryptedConfiguration(Self.passphrase))
        #expect(try queue.read { db in try String.fetchAll(db, sql: "SELECT value FROM item ORDER BY rowid") } == ["first", "second"])
    }

    /// The salt is read through the connection's own file handle: a
    /// descriptor of its own, closed, would drop the locks of the pool's
    /// other connections, and another process would then delete the WAL
    /// that the pool still writes to.
    @Test func aPoolsNewReadersKeepItsLocksSoAnotherProcessLeavesItsWALAlone() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("shared.sqlite")
        try makeFile(at: path)
        let pool = try DatabasePool(path: path, configuration: cachedConfiguration(PassphraseKeyCache()))
        try await pool.write { db in try db.execute(sql: "INSERT INTO item VALUES ('second')") }
        #expect(try readThroughNewReaders(pool, times: 2) == Array(repeating: ["first", "second"], count: 2))
        try await openAndCloseInAnotherProcess(path, passphrase: Self.passphrase)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "the other process took the pool's database for unused")
        try pool.close()
    }

    @Test func aNewFileGetsItsSaltFromSQLCipherAndTheNextConnectionDerivesFromIt() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("new.sqlite")
        let cache = PassphraseKeyCache()
        let pool = try DatabasePool(path: path, configuration: cachedConfiguration(cache))
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE item (value TEXT)")
            try db.execute(sql: "INSERT INTO item VALUES ('first')")
        }
        #expect(cache.derivationCount == 0)
        #expect(try readThroughNewReaders(pool, times: 2) == [["first"], ["first"]])
        #expect(cache.derivationCount == 1)
        try pool.close()

        let queue = try DatabaseQueue(path: path, configuration: encryptedConfiguration(Self.passphrase))
        #expect(try queue.read { db in try String.fetchOne(db, sql: "SELECT value FROM item") } == "first")
    }

    @Test func readersThatOpenAtOnceWaitForOneDerivation() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("concurrent.sqlite")
        try makeFile(at: path)
        let cache = PassphraseKeyCache()
        let configuration = cachedConfiguration(cache)
        // Four queues opening at once, each a first connection of the cache.
        let opened = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            if let queue = try? DatabaseQueue(path: path, configuration: configuration),
               (try? queue.read { db in try String.fetchOne(db, sql: "SELECT value FROM item") }) == "first" {
                opened.withLock { $0 += 1 }
            }
        }
        #expect(opened.withLock { $0 } == 4)
        #expect(cache.derivationCount == 1)
    }

    @Test func aChangedPassphraseIsDerivedAgain() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("rekeyed.sqlite")
        try makeFile(at: path)
        let cache = PassphraseKeyCache()
        let current = Mutex(Self.passphrase)
        let pool = try DatabasePool(path: path, configuration: cachedConfiguration(cache) { current.withLock { $0 } })
        #expect(try readThroughNewReaders(pool, times: 1) == [["first"]])
        try pool.barrierWriteWithoutTransaction { db in
            try db.changePassphrase("changed passphrase")
            pool.invalidateReadOnlyConnections()
        }
        current.withLock { $0 = "changed passphrase" }
        #expect(try readThroughNewReaders(pool, times: 2) == [["first"], ["first"]])
        #expect(cache.derivationCount == 2)
        try pool.close()

        #expect(throws: DatabaseError.self) { try DatabaseQueue(path: path, configuration: encryptedConfiguration(Self.passphrase)) }
        _ = try DatabaseQueue(path: path, configuration: encryptedConfiguration("changed passphrase"))
    }

    @Test func aWrongPassphraseFailsToOpenAsItDoesWithoutTheCache() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("wrong.sqlite")
        try makeFile(at: path)
        let cache = PassphraseKeyCache()
        let error = #expect(throws: DatabaseError.self) {
            try DatabaseQueue(path: path, configuration: cachedConfiguration(cache) { "wrong passphrase" })
        }
        #expect(error?.resultCode == .SQLITE_NOTADB)
        #expect(error?.description.contains("the passphrase or key is wrong") == true)
    }

    @Test func aKDFIterationCountSetAfterTheKeyIsRefused() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("iterations.sqlite")
        try makeFile(at: path)
        var configuration = cachedConfiguration(PassphraseKeyCache())
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA kdf_iter = 4000") }
        let error = #expect(throws: DatabaseError.self) { try DatabaseQueue(path: path, configuration: configuration) }
        #expect(error?.resultCode == .SQLITE_MISUSE)
        #expect(error?.message?.contains("PRAGMA kdf_iter was set after DatabaseKeySource.configure gave the key") == true)
    }

    @Test func aPassphraseInSQLCiphersRawKeySyntaxIsARawKeyAsInSQLCipher() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("raw.sqlite")
        let key = Data((0..<32).map { UInt8($0) &* 7 &+ 1 })
        var rawConfiguration = Configuration()
        rawConfiguration.prepareDatabase { db in try db.useRawKey(key) }
        let queue = try DatabaseQueue(path: path, configuration: rawConfiguration)
        try queue.write { db in try db.execute(sql: "CREATE TABLE item (value TEXT); INSERT INTO item VALUES ('raw')") }
        try queue.close()

        let syntax = "x'" + key.map { String(format: "%02x", $0) }.joined() + "'"
        let cache = PassphraseKeyCache()
        let pool = try DatabasePool(path: path, configuration: cachedConfiguration(cache) { syntax })
        #expect(try readThroughNewReaders(pool, times: 2) == [["raw"], ["raw"]])
        #expect(cache.derivationCount == 0)
    }
}
