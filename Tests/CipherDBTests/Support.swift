import CipherDB
import Foundation
import TestSupport
import Testing

/// The two kinds of database connections: every behaviour that both share
/// is tested on both.
enum DatabaseKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case queue
    case pool

    var testDescription: String { rawValue }

    func open(path: String, configuration: Configuration = Configuration()) throws -> any DatabaseWriter {
        switch self {
        case .queue: return try DatabaseQueue(path: path, configuration: configuration)
        case .pool: return try DatabasePool(path: path, configuration: configuration)
        }
    }

    /// The values that an observation started on this kind of writer
    /// delivers before any commit: a pool fetches the initial value on a
    /// reader, then again on the writer as it registers the observer
    /// (GRDB without WAL snapshots), and delivers both.
    func initialValues<Value>(_ value: Value) -> [Value] {
        switch self {
        case .queue: [value]
        case .pool: [value, value]
        }
    }
}

/// A configuration that gives `passphrase` to every connection, with
/// `usePassphrase`: PBKDF2 on each.
func encryptedConfiguration(_ passphrase: String) -> Configuration {
    var configuration = Configuration()
    configuration.prepareDatabase { (db) throws in
        try db.usePassphrase(passphrase)
    }
    return configuration
}

/// The raw key of ``encryptedConfiguration()``.
let fixtureKey = Data((0..<32).map { UInt8($0) &* 13 &+ 5 })

/// A configuration that gives every connection the same raw key: files
/// encrypted page by page as with a passphrase, without its key
/// derivation (30 ms a connection), for the tests of what the toolkit does
/// on an encrypted file. Key derivation has tests of its own, with
/// passphrases (EncryptionTests, DatabaseKeySourceTests,
/// PassphraseKeyCacheTests).
func encryptedConfiguration() -> Configuration {
    var configuration = Configuration()
    configuration.prepareDatabase { (db) throws in
        try db.useRawKey(fixtureKey)
    }
    return configuration
}

/// A fresh encrypted database in its own folder, kept alive with the folder.
struct DatabaseFixture {
    let folder: TemporaryFolder
    let path: String
    let writer: any DatabaseWriter

    init(_ kind: DatabaseKind, configuration: Configuration = encryptedConfiguration()) throws {
        folder = try TemporaryFolder()
        path = folder.path("db.sqlite")
        writer = try kind.open(path: path, configuration: configuration)
    }

    /// Creates `player(id, name, score)`.
    func createPlayerTable() throws {
        try writer.write { (db) throws in
            try db.execute(sql: """
                CREATE TABLE player (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL UNIQUE,
                    score INTEGER NOT NULL DEFAULT 0)
                """)
        }
    }

    /// The raw bytes of a file of the database (`""`, `-wal`, `-journal`).
    func fileBytes(suffix: String = "") throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path + suffix))
    }
}

extension Data {
    func contains(_ string: String) -> Bool {
        range(of: Data(string.utf8)) != nil
    }
}

/// Opens the encrypted database at `path` in Debian's `sqlcipher` shell,
/// another process, reads its schema, and closes it. A process that finds
/// no other process holding a lock on the file as it closes takes itself
/// for the last one: it checkpoints and deletes the WAL.
func openAndCloseInAnotherProcess(_ path: String, passphrase: String) async throws {
    // The passphrase goes through standard input, never argv.
    let result = try await run(EncryptionTests.sqlcipherShell, [path], input: """
        PRAGMA key = '\(passphrase)';
        SELECT COUNT(*) FROM sqlite_master;
        """)
    guard result.status == 0 else { throw TestFailure("sqlcipher \(path) exited with \(result.status): \(result.error)") }
}
