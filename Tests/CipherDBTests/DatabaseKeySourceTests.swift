import CipherDB
import Foundation
import TestSupport
import Testing

/// What the example of Docs/Encryption.md loads its keys with.
private func loadKey() throws -> Data { DatabaseKeySourceTests.rawKey }
private func loadPassphrase() throws -> String { "copy passphrase" }

/// `DatabaseKeySource`: keying connections, attaching databases with a
/// key (or explicitly without one), and the raw key's `x'…'` form.
@Suite struct DatabaseKeySourceTests {
    static let rawKey = Data((0..<32).map { UInt8($0) &* 11 &+ 3 })
    static let secretText = "TOP-SECRET-PLAYER-NAME"

    static let sources: [(String, DatabaseKeySource)] = [
        ("passphrase", .passphrase { Data("attach passphrase".utf8) }),
        ("raw key", .rawKey { rawKey }),
    ]

    /// A pool keyed with `key`, holding one secret row.
    func makeDatabase(at path: String, key: DatabaseKeySource?) throws -> DatabasePool {
        var configuration = Configuration()
        key?.configure(&configuration)
        let pool = try DatabasePool(path: path, configuration: configuration)
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE secret (value TEXT)")
            try db.execute(sql: "INSERT INTO secret VALUES (?)", arguments: [Self.secretText])
        }
        return pool
    }

    /// The secret row of the database at `path`, opened with `configuration`.
    func secret(at path: String, _ configuration: Configuration) throws -> String? {
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in try String.fetchOne(db, sql: "SELECT value FROM secret") }
    }

    @Test(arguments: sources.map(\.1))
    func configuredSourceKeysTheFileAsUseKeyDoes(_ key: DatabaseKeySource) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("keyed.sqlite")
        try makeDatabase(at: path, key: key).close()

        var same = Configuration()
        same.prepareDatabase { db in
            switch key {
            case .passphrase: try db.usePassphrase("attach passphrase")
            case .rawKey: try db.useRawKey(Self.rawKey)
            }
        }
        #expect(try secret(at: path, same) == Self.secretText)
        #expect(throws: DatabaseError.self) { try secret(at: path, Configuration()) }
        #expect(try !Data(contentsOf: URL(fileURLWithPath: path)).contains(Self.secretText))
    }

    @Test(arguments: sources.map(\.1))
    func exportIntoAnAttachedDatabaseEncryptsItWithItsKey(_ key: DatabaseKeySource) throws {
        let folder = try TemporaryFolder()
        let main = try makeDatabase(at: folder.path("main.sqlite"), key: .passphrase { Data("main".utf8) })
        defer { try? main.close() }
        let copy = folder.path("copy.sqlite")
        try main.writeWithoutTransaction { db in
            try db.attachDatabase(atPath: copy, as: "copy", key: key)
            _ = try Row.fetchAll(db, sql: "SELECT sqlcipher_export('copy')")
            try db.detachDatabase(named: "copy")
        }
        var configuration = Configuration()
        key.configure(&configuration)
        #expect(try secret(at: copy, configuration) == Self.secretText)
        #expect(throws: DatabaseError.self) { try secret(at: copy, encryptedConfiguration("main")) }
        #expect(try !Data(contentsOf: URL(fileURLWithPath: copy)).contains(Self.secretText))
    }

    @Test func plaintextAttachOfAnEncryptedConnectionWritesPlaintext() throws {
        let folder = try TemporaryFolder()
        let main = try makeDatabase(at: folder.path("main.sqlite"), key: .rawKey { Self.rawKey })
        defer { try? main.close() }
        let copy = folder.path("plain.sqlite")
        try main.writeWithoutTransaction { db in
            try db.attachDatabase(atPath: copy, as: "plain", key: .plaintext)
            _ = try Row.fetchAll(db, sql: "SELECT sqlcipher_export('plain')")
            try db.detachDatabase(named: "plain")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)).starts(with: Data("SQLite format 3".utf8)))
        #expect(try secret(at: copy, Configuration()) == Self.secretText)
    }

    @Test func attachingWithAnEmptyPassphraseIsRefused() throws {
        let queue = try DatabaseQueue()
        let folder = try TemporaryFolder()
        let error = #expect(throws: DatabaseError.self) {
            try queue.writeWithoutTransaction { db in
                try db.attachDatabase(atPath: folder.path("other.sqlite"), as: "other", key: .passphrase { Data() })
            }
        }
        #expect(error?.resultCode == .SQLITE_MISUSE)
        #expect(!FileManager.default.fileExists(atPath: folder.path("other.sqlite")))
    }

    @Test func attachNeverShowsTheKeyInTracesOrErrors() throws {
        let queue = try DatabaseQueue()
        let passphrase = "my-attach-passphrase"
        let key = DatabaseKeySource.passphrase { Data(passphrase.utf8) }
        let hexKey = Self.rawKey.map { String(format: "%02X", $0) }.joined()
        var traced: [String] = []
        let missingFolder = "/nonexistent-\(UUID().uuidString)/other.sqlite"
        let error = try queue.writeWithoutTransaction { db in
            db.trace { traced.append($0.expandedDescription) }
            defer { db.trace(nil) }
            try db.attachDatabase(atPath: ":memory:", as: "other", key: key)
            try db.detachDatabase(named: "other")
            try db.attachDatabase(atPath: ":memory:", as: "other", key: .rawKey { Self.rawKey })
            try db.detachDatabase(named: "other")
            return #expect(throws: DatabaseError.self) {
                try db.attachDatabase(atPath: missingFolder, as: "missing", key: key)
            }
        }
        #expect(traced.contains { $0.hasPrefix("ATTACH DATABASE") })
        let shown = traced + ["\(error!)", error!.expandedDescription]
        #expect(!shown.contains { $0.contains(passphrase) || $0.uppercased().contains(hexKey) })
    }

    @Test func rawKeyMaterialIsTheHexForm() throws {
        let material = try DatabaseKeySource.rawKey { Self.rawKey }.withKeyMaterial { Array($0) }
        let hex = Self.rawKey.map { String(format: "%02X", $0) }.joined()
        #expect(String(decoding: material, as: UTF8.self) == "x'\(hex)'")
        #expect(throws: DatabaseError.self) {
            try DatabaseKeySource.rawKey { Data(count: 16) }.withKeyMaterial { _ in }
        }
        #expect(try DatabaseKeySource.passphrase { Data("pass".utf8) }.withKeyMaterial { Array($0) } == Array("pass".utf8))
    }

    /// Docs/Encryption.md, "Key sources and attached databases", as written.
    @Test func encryptionGuideExampleRuns() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("db.sqlite")
        let copyPath = folder.path("copy.sqlite")
        try makeDatabase(at: path, key: .rawKey { Self.rawKey }).close()

        let key = DatabaseKeySource.rawKey { try loadKey() }   // or .passphrase { … }
        var config = Configuration()
        key.configure(&config)
        let dbPool = try DatabasePool(path: path, configuration: config)

        // A copy with another key, or none (key: .plaintext), page by page:
        try dbPool.writeWithoutTransaction { db in
            try db.attachDatabase(atPath: copyPath, as: "copy", key: .passphrase { Data(try loadPassphrase().utf8) })
            _ = try Row.fetchAll(db, sql: "SELECT sqlcipher_export('copy')")
            try db.detachDatabase(named: "copy")
        }

        try dbPool.close()
        #expect(try secret(at: copyPath, encryptedConfiguration("copy passphrase")) == Self.secretText)
        #expect(throws: DatabaseError.self) { try secret(at: copyPath, encryptedConfiguration("another passphrase")) }
    }
}
