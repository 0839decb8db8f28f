import CipherDB
import Foundation
import Testing

/// `DatabaseQueue.inMemoryCopy` and `DatabaseQueue.temporaryCopy` of
/// encrypted databases: the content is copied, the copy can be changed
/// (or not, read-only), the source never is, and a temporary copy on disk
/// is encrypted.
@Suite struct DatabaseQueueCopyTests {
    enum CopyKind: String, CaseIterable, CustomTestStringConvertible {
        case inMemory
        case temporary

        var testDescription: String { rawValue }

        func copy(_ path: String, _ configuration: Configuration = encryptedConfiguration()) throws -> DatabaseQueue {
            switch self {
            case .inMemory: return try DatabaseQueue.inMemoryCopy(fromPath: path, configuration: configuration)
            case .temporary: return try DatabaseQueue.temporaryCopy(fromPath: path, configuration: configuration)
            }
        }
    }

    /// An encrypted database of `player(id, name)` whose names are
    /// `marker` and a number, closed.
    func makeSource(rows: Int = 2, marker: String = "COPY-SECRET") throws -> DatabaseFixture {
        let fixture = try DatabaseFixture(.queue)
        try fixture.writer.write { (db) throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            for index in 1...rows {
                try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["\(marker) \(index)"])
            }
        }
        try fixture.writer.close()
        return fixture
    }

    func names(_ reader: some DatabaseReader) throws -> [String] {
        try reader.read { try String.fetchAll($0, sql: "SELECT name FROM player ORDER BY id") }
    }

    @Test(arguments: CopyKind.allCases)
    func theCopyHasTheContentOfTheEncryptedSource(_ kind: CopyKind) throws {
        let source = try makeSource()
        let copy = try kind.copy(source.path)
        #expect(try names(copy) == ["COPY-SECRET 1", "COPY-SECRET 2"])
        #expect(try copy.read { try $0.isEncrypted })
    }

    @Test(arguments: CopyKind.allCases)
    func changesOfTheCopyDoNotReachTheSource(_ kind: CopyKind) throws {
        let source = try makeSource()
        let copy = try kind.copy(source.path)
        try copy.write { (db) throws in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')")
            try db.execute(sql: "CREATE TABLE team (id)")
        }
        #expect(try names(copy) == ["COPY-SECRET 1", "COPY-SECRET 2", "Craig"])
        let reopened = try DatabaseQueue(path: source.path, configuration: encryptedConfiguration())
        #expect(try names(reopened) == ["COPY-SECRET 1", "COPY-SECRET 2"])
        #expect(try reopened.read { try $0.tableExists("team") } == false)
    }

    @Test(arguments: CopyKind.allCases)
    func aReadOnlyCopyRefusesWritesEvenAfterReads(_ kind: CopyKind) throws {
        let source = try makeSource()
        var configuration = encryptedConfiguration()
        configuration.readonly = true
        let copy = try kind.copy(source.path, configuration)
        for _ in 0..<2 {
            do {
                try copy.write { (db) throws in try db.execute(sql: "DROP TABLE player") }
                Issue.record("expected the write to be refused")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_READONLY)
                #expect(error.message == "attempt to write a readonly database")
            }
            #expect(try names(copy).count == 2)
        }
    }

    @Test(arguments: CopyKind.allCases)
    func aCopyOfAPlaintextDatabaseNeedsNoKey(_ kind: CopyKind) throws {
        let source = try DatabaseFixture(.queue, configuration: Configuration())
        try source.writer.write { (db) throws in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO player (name) VALUES ('Arthur')") }
        let copy = try kind.copy(source.path, Configuration())
        #expect(try names(copy) == ["Arthur"])
    }

    /// A configuration that keys every connection but the copy's: the
    /// copy of an encrypted database would be plaintext.
    @Test(arguments: CopyKind.allCases)
    func aCopyWithoutTheKeyOfAnEncryptedSourceIsRefused(_ kind: CopyKind) throws {
        let source = try makeSource()
        let sourcePath = source.path
        var configuration = Configuration()
        configuration.prepareDatabase { (db) throws in
            if db.path == sourcePath {
                try db.useRawKey(fixtureKey)
            }
        }
        do {
            _ = try kind.copy(sourcePath, configuration)
            Issue.record("expected the copy to be refused")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_MISUSE)
            #expect(error.message?.contains("plaintext") == true)
        }
    }

    /// A temporary copy that SQLite writes to disk (a file it deletes as
    /// soon as it opens it, `etilqs_…`) is encrypted with the key of the
    /// configuration. Debian's SQLCipher keeps it in memory instead
    /// (TEMP_STORE=2: temporary databases are in memory unless
    /// `PRAGMA temp_store = FILE`, which comes too late for the main
    /// database of a connection): then no file is written at all. A tiny
    /// page cache would make SQLite write it at once.
    @Test func aTemporaryCopyWritesNoPlaintextFile() throws {
        let marker = "TEMP-COPY-SECRET-\(UUID().uuidString)"
        let source = try makeSource(rows: 2000, marker: marker)
        var configuration = encryptedConfiguration()
        configuration.prepareDatabase { (db) throws in
            try db.execute(sql: "PRAGMA cache_size = 10")
        }
        let before = try Self.openTemporaryFiles()
        let copy = try DatabaseQueue.temporaryCopy(fromPath: source.path, configuration: configuration)
        try copy.write { (db) throws in try db.execute(sql: "UPDATE player SET name = name || ' again'") }
        #expect(try names(copy).count == 2000)
        #expect(try copy.read { try $0.isEncrypted })
        let files = try Self.openTemporaryFiles().filter { before[$0.key] == nil }
        for file in files.values {
            let content = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(!content.starts(with: Data("SQLite format 3\0".utf8)))
            #expect(!content.contains(marker))
        }
        if files.isEmpty {
            let options = try copy.read { try String.fetchAll($0, sql: "PRAGMA compile_options") }
            #expect(options.contains("TEMP_STORE=2") || options.contains("TEMP_STORE=3"))
        }
        try copy.close()
    }

    /// The temporary files of SQLite that the process has open
    /// (`etilqs_…`, deleted): their `/proc/self/fd` paths by the paths
    /// they had.
    static func openTemporaryFiles() throws -> [String: String] {
        var files: [String: String] = [:]
        for fd in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            let link = "/proc/self/fd/\(fd)"
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link), target.contains("etilqs_") {
                files[target] = link
            }
        }
        return files
    }
}
