import CipherDB
import Foundation
import TestSupport
import Testing

@Suite struct EncryptionTests {
    static let secretText = "TOP-SECRET-PLAYER-NAME"

    func insertSecret(_ writer: any DatabaseWriter, count: Int = 200) throws {
        try writer.write { (db) throws in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS secret (id INTEGER PRIMARY KEY, value TEXT)")
            for index in 0..<count {
                try db.execute(sql: "INSERT INTO secret (value) VALUES (?)", arguments: ["\(Self.secretText) \(index)"])
            }
        }
    }

    func secretCount(_ writer: any DatabaseReader) throws -> Int {
        try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM secret")! }
    }

    func expectNotADatabase(_ kind: DatabaseKind, path: String, configuration: Configuration,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try kind.open(path: path, configuration: configuration)
            Issue.record("the database opened", sourceLocation: sourceLocation)
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_NOTADB, sourceLocation: sourceLocation)
            // SQLite's message (SQLite 3.15.2's words), as GRDB has it; the
            // description names the file and the likely causes.
            #expect(error.message == "file is encrypted or is not a database", sourceLocation: sourceLocation)
            #expect(error.description == "SQLite error 26: file is encrypted or is not a database (cannot read the database at \(path): "
                + "the passphrase or key is wrong or missing, or the file is not an encrypted database)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func encryptedFileHasNoPlaintext(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try insertSecret(fixture.writer)
        if kind == .pool {
            // A passive checkpoint copies the pages into the main file and
            // leaves the frames in the -wal file: both are checked.
            try fixture.writer.writeWithoutTransaction { (db) throws in
                _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(PASSIVE)")
            }
            let wal = try fixture.fileBytes(suffix: "-wal")
            #expect(wal.count > 4096)
            #expect(!wal.contains(Self.secretText))
        }
        let bytes = try fixture.fileBytes()
        #expect(bytes.count > 4096)
        #expect(!bytes.starts(with: Data("SQLite format 3".utf8)))
        #expect(!bytes.contains(Self.secretText))
        #expect(!bytes.contains("CREATE TABLE"))
    }

    @Test func rollbackJournalHasNoPlaintext() throws {
        let fixture = try DatabaseFixture(.queue)
        try insertSecret(fixture.writer)
        try fixture.writer.writeWithoutTransaction { (db) throws in
            try db.execute(sql: "PRAGMA journal_mode = PERSIST") // keeps the journal file after commit
            try db.execute(sql: "UPDATE secret SET value = value || ' updated'")
        }
        let journal = try fixture.fileBytes(suffix: "-journal")
        #expect(!journal.isEmpty)
        #expect(!journal.contains(Self.secretText))
    }

    @Test(arguments: DatabaseKind.allCases)
    func wrongMissingAndEmptyPassphrasesFailAtOpenTime(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind, configuration: encryptedConfiguration("right passphrase"))
        try insertSecret(fixture.writer)
        try fixture.writer.close()
        expectNotADatabase(kind, path: fixture.path, configuration: encryptedConfiguration("wrong passphrase"))
        expectNotADatabase(kind, path: fixture.path, configuration: Configuration())

        var emptyPassphrase = Configuration()
        emptyPassphrase.prepareDatabase { db in try db.usePassphrase("") }
        do {
            _ = try kind.open(path: fixture.path, configuration: emptyPassphrase)
            Issue.record("the database opened with an empty passphrase")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_MISUSE)
            #expect(error.message?.contains("passphrase is empty") == true)
        }
        // The right passphrase still works.
        #expect(try secretCount(kind.open(path: fixture.path, configuration: encryptedConfiguration("right passphrase"))) == 200)
    }

    @Test func plaintextDatabaseIsRejectedWithAPassphrase() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("plain.sqlite")
        let plain = try DatabaseQueue(path: path)
        try insertSecret(plain)
        try plain.close()
        expectNotADatabase(.queue, path: path, configuration: encryptedConfiguration("correct horse battery staple"))
    }

    @Test func errorMessagesNeverShowThePassphrase() throws {
        let fixture = try DatabaseFixture(.queue, configuration: encryptedConfiguration("right passphrase"))
        try fixture.writer.close()
        do {
            _ = try DatabaseQueue(path: fixture.path, configuration: encryptedConfiguration("my-wrong-passphrase"))
        } catch {
            #expect(!"\(error)".contains("my-wrong-passphrase"))
            #expect(!error.localizedDescription.contains("my-wrong-passphrase"))
        }
    }

    /// SQLCipher draws a salt for a connection keyed while its file is
    /// empty: once another connection wrote the file with a salt of its
    /// own, this one cannot read it, and the error says why.
    @Test func aConnectionOpenedOnANewFileBeforeAnothersFirstWriteFailsAndSaysWhy() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("new.sqlite")
        let configuration = encryptedConfiguration("new file secret")
        let first = try DatabaseQueue(path: path, configuration: configuration)
        let early = try DatabaseQueue(path: path, configuration: configuration)
        try insertSecret(first, count: 1)
        let error = try #require(throws: DatabaseError.self) { try secretCount(early) }
        #expect(error.resultCode == .SQLITE_NOTADB)
        #expect(error.message == "file is encrypted or is not a database")
        #expect(error.description.contains("this connection was opened on the empty file of a new encrypted database"))
        // A connection opened once the file has its salt reads it.
        #expect(try secretCount(DatabaseQueue(path: path, configuration: configuration)) == 1)
    }

    @Test(arguments: DatabaseKind.allCases)
    func rawKeysSkipDerivationAndRejectWrongLengths(_ kind: DatabaseKind) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("raw.sqlite")
        let key = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.useRawKey(key) }
        let writer = try kind.open(path: path, configuration: configuration)
        try insertSecret(writer, count: 10)
        try writer.close()
        #expect(try secretCount(kind.open(path: path, configuration: configuration)) == 10)

        var mutatedKey = key
        mutatedKey[0] ^= 0xFF
        let otherKey = mutatedKey
        var wrong = Configuration()
        wrong.prepareDatabase { db in try db.useRawKey(otherKey) }
        expectNotADatabase(kind, path: path, configuration: wrong)

        var short = Configuration()
        short.prepareDatabase { db in try db.useRawKey(Data(repeating: 1, count: 16)) }
        #expect(throws: DatabaseError.self) { try kind.open(path: path, configuration: short) }
    }

    @Test func dataPassphraseMatchesStringPassphrase() throws {
        let fixture = try DatabaseFixture(.queue, configuration: encryptedConfiguration("bytes"))
        try insertSecret(fixture.writer, count: 1)
        try fixture.writer.close()
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.usePassphrase(Data("bytes".utf8)) }
        #expect(try secretCount(DatabaseQueue(path: fixture.path, configuration: configuration)) == 1)
    }

    @Test func changingThePassphraseOnAQueue() throws {
        let fixture = try DatabaseFixture(.queue, configuration: encryptedConfiguration("old"))
        try insertSecret(fixture.writer)
        try fixture.writer.write { db in try db.changePassphrase("new") }
        // The connection keeps working with the new key.
        #expect(try secretCount(fixture.writer) == 200)
        try fixture.writer.close()
        expectNotADatabase(.queue, path: fixture.path, configuration: encryptedConfiguration("old"))
        #expect(try secretCount(DatabaseQueue(path: fixture.path, configuration: encryptedConfiguration("new"))) == 200)
    }

    @Test func changingThePassphraseOnAPool() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("db.sqlite")
        let passphrase = PassphraseStore("old")
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.usePassphrase(passphrase.value) }
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        try insertSecret(dbPool)
        #expect(try secretCount(dbPool) == 200) // opens a reader with the old passphrase
        try dbPool.barrierWriteWithoutTransaction { (db) throws in
            try db.changePassphrase("new")
            passphrase.value = "new"
            dbPool.invalidateReadOnlyConnections()
        }
        #expect(try secretCount(dbPool) == 200) // a new reader, with the new passphrase
        try dbPool.write { db in try db.execute(sql: "INSERT INTO secret (value) VALUES ('after')") }
        try dbPool.close()
        expectNotADatabase(.pool, path: path, configuration: encryptedConfiguration("old"))
        #expect(try secretCount(DatabasePool(path: path, configuration: encryptedConfiguration("new"))) == 201)
    }

    @Test func changingToARawKeyAndBack() throws {
        let fixture = try DatabaseFixture(.queue, configuration: encryptedConfiguration("old"))
        try insertSecret(fixture.writer, count: 5)
        let key = Data(repeating: 0xA5, count: 32)
        try fixture.writer.writeWithoutTransaction { db in try db.changeRawKey(key) }
        try fixture.writer.close()
        var rawConfiguration = Configuration()
        rawConfiguration.prepareDatabase { db in try db.useRawKey(key) }
        let reopened = try DatabaseQueue(path: fixture.path, configuration: rawConfiguration)
        #expect(try secretCount(reopened) == 5)
        try reopened.writeWithoutTransaction { db in try db.changePassphrase("back") }
        try reopened.close()
        #expect(try secretCount(DatabaseQueue(path: fixture.path, configuration: encryptedConfiguration("back"))) == 5)
    }

    @Test func changingThePassphraseOfAPlaintextDatabaseIsRefused() throws {
        let folder = try TemporaryFolder()
        let dbQueue = try DatabaseQueue(path: folder.path("plain.sqlite"))
        try insertSecret(dbQueue, count: 1)
        #expect(throws: DatabaseError.self) {
            try dbQueue.writeWithoutTransaction { db in try db.changePassphrase("new") }
        }
        #expect(try secretCount(dbQueue) == 1)
        #expect(try dbQueue.read { try $0.isEncrypted } == false)
    }

    @Test func emptyNewPassphraseIsRefused() throws {
        let fixture = try DatabaseFixture(.queue, configuration: encryptedConfiguration("old"))
        try insertSecret(fixture.writer, count: 1)
        #expect(throws: DatabaseError.self) {
            try fixture.writer.writeWithoutTransaction { db in try db.changePassphrase("") }
        }
        try fixture.writer.close()
        #expect(try secretCount(DatabaseQueue(path: fixture.path, configuration: encryptedConfiguration("old"))) == 1)
    }

    // MARK: - Interoperability with Debian's sqlcipher shell

    static let sqlcipherShell = "/usr/bin/sqlcipher"

    @Test func fileWrittenHereOpensInTheSQLCipherShell() async throws {
        let fixture = try DatabaseFixture(.queue, configuration: encryptedConfiguration("shell secret"))
        try insertSecret(fixture.writer, count: 3)
        try fixture.writer.close()
        // The passphrase goes through standard input, never argv.
        let result = try await run(Self.sqlcipherShell, [fixture.path], input: """
            PRAGMA key = 'shell secret';
            SELECT value FROM secret ORDER BY id;
            """)
        #expect(result.status == 0)
        #expect(result.output.split(separator: "\n") == ["\(Self.secretText) 0", "\(Self.secretText) 1", "\(Self.secretText) 2"])

        let wrong = try await run(Self.sqlcipherShell, [fixture.path], input: "PRAGMA key = 'nope';\nSELECT COUNT(*) FROM secret;\n")
        #expect(wrong.error.contains("file is encrypted or is not a database"))
    }

    @Test func fileWrittenByTheSQLCipherShellOpensHere() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("shell.sqlite")
        let result = try await run(Self.sqlcipherShell, [path], input: """
            PRAGMA key = 'from the shell';
            CREATE TABLE secret (id INTEGER PRIMARY KEY, value TEXT);
            INSERT INTO secret (value) VALUES ('written by sqlcipher');
            """)
        #expect(result.status == 0)
        let dbQueue = try DatabaseQueue(path: path, configuration: encryptedConfiguration("from the shell"))
        await #expect(try dbQueue.read { try String.fetchOne($0, sql: "SELECT value FROM secret") } == "written by sqlcipher")
        expectNotADatabase(.queue, path: path, configuration: Configuration())
    }
}

/// A passphrase that changes, read by `prepareDatabase` each time a
/// connection opens (GRDB's recommended pattern).
final class PassphraseStore: @unchecked Sendable {
    // @unchecked: `storage` is only touched under `lock`.
    private let lock = NSLock()
    private var storage: String

    init(_ value: String) { storage = value }

    var value: String {
        get { lock.withLock { storage } }
        set { lock.withLock { storage = newValue } }
    }
}

@Suite struct RekeyWhileReadingTests {
    /// SQLCipher 3.4.1 may report a successful rekey while another
    /// connection holds a read transaction. Whatever SQLCipher does, the
    /// outcome must be verified: either the new passphrase works and the old
    /// one fails, or the change throws and the old passphrase still works.
    @Test func rekeyWhileAnotherConnectionReadsIsVerified() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("db.sqlite")
        let dbPool = try DatabasePool(path: path, configuration: encryptedConfiguration("old"))
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE t (value TEXT)")
            for index in 0..<100 { try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["row \(index)"]) }
        }
        let reading = DispatchSemaphore(value: 0)
        let rekeyDone = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            try? dbPool.read { db in
                _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
                reading.signal()
                rekeyDone.wait()
            }
        }
        reading.wait()
        // Not a barrier write: the reader above holds its transaction.
        let outcome = Result { try dbPool.writeWithoutTransaction { db in try db.changePassphrase("new") } }
        rekeyDone.signal()
        group.wait()
        try dbPool.close()

        func count(_ passphrase: String) -> Int? {
            try? DatabaseQueue(path: path, configuration: encryptedConfiguration(passphrase))
                .read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }
        }
        switch outcome {
        case .success:
            #expect(count("new") == 100)
            #expect(count("old") == nil)
        case .failure(let error):
            #expect(error is DatabaseError)
            #expect(count("old") == 100)
        }
    }

    /// When another connection holds the write lock, SQLCipher 3.4.1's
    /// rekey cannot start its transaction, yet returns SQLITE_OK. The
    /// verification must catch it, and the old passphrase must still work.
    @Test func rekeyThatSQLCipherSilentlySkipsThrows() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("db.sqlite")
        let rekeying = try DatabaseQueue(path: path, configuration: encryptedConfiguration("old"))
        try rekeying.write { db in
            try db.execute(sql: "CREATE TABLE t (value TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES ('kept')")
        }
        let locking = try DatabaseQueue(path: path, configuration: encryptedConfiguration("old"))
        let outcome = try locking.writeWithoutTransaction { lockingDB in
            try lockingDB.execute(sql: "BEGIN IMMEDIATE TRANSACTION")
            defer { try? lockingDB.rollback() }
            return Result { try rekeying.writeWithoutTransaction { db in try db.changePassphrase("new") } }
        }
        do {
            try outcome.get()
            Issue.record("the rekey reported success while another connection held the write lock")
        } catch let error as DatabaseError {
            #expect(error.message?.contains("did not take effect") == true)
        }
        try rekeying.close()
        try locking.close()
        let reopened = try DatabaseQueue(path: path, configuration: encryptedConfiguration("old"))
        #expect(try reopened.read { try String.fetchOne($0, sql: "SELECT value FROM t") } == "kept")
    }

    @Test func theCipherLibraryIsDescribedForAKeyedConnectionOnly() throws {
        let encrypted = try DatabaseQueue(configuration: encryptedConfiguration())
        try encrypted.read { (db) throws in
            #expect(try db.cipherFipsStatus == "0")
            #expect(try db.cipherProvider == "openssl")
            #expect(try db.cipherProviderVersion?.hasPrefix("OpenSSL ") == true)
        }
        let plaintext = try DatabaseQueue()
        try plaintext.read { (db) throws in
            #expect(try db.cipherProvider == nil)
        }
    }

    @Test func cipherLoggingThatThisSQLCipherLacksIsRefused() throws {
        let dbQueue = try DatabaseQueue(configuration: encryptedConfiguration())
        let folder = try TemporaryFolder()
        let logPath = folder.path("sqlcipher.log")
        try dbQueue.inDatabase { (db) throws in
            // SQLCipher 3.4.1 would ignore the pragmas: no log, no error.
            #expect(try db.cipherVersion == "3.4.1")
            #expect {
                try db.enableCipherLogging(logLevel: .error, target: .file(logPath))
            } throws: { error in
                (error as? DatabaseError)?.message?.contains("needs SQLCipher 4") == true
            }
        }
        #expect(!FileManager.default.fileExists(atPath: logPath))
    }
}
