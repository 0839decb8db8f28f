import CipherDB
import Foundation
import TestSupport
import Testing

/// The procedures of Docs/MigratingFromGRDB.md, as written there.
@Suite struct MigratingFromGRDBTests {
    static func loadPassphrase() -> String { "migrated passphrase" }

    /// "An existing plaintext database is not encrypted in place: copy it
    /// into a new encrypted file with `sqlcipher_export`".
    @Test func aPlaintextGRDBDatabaseIsCopiedIntoAnEncryptedOne() throws {
        let folder = try TemporaryFolder()
        let oldPath = folder.path("grdb.sqlite"), newPath = folder.path("encrypted.sqlite")
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
        }
        let made = try DatabaseQueue(path: oldPath)
        try migrator.migrate(made)
        try made.write { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur'); PRAGMA user_version = 7")
        }
        try made.close()

        // The page's code.
        let plaintext = try DatabaseQueue(path: oldPath)   // no key: plaintext
        try plaintext.writeWithoutTransaction { db in
            try db.attachDatabase(atPath: newPath, as: "encrypted", key: .passphrase { Data(Self.loadPassphrase().utf8) })
            _ = try Row.fetchAll(db, sql: "SELECT sqlcipher_export('encrypted')")
            try db.detachDatabase(named: "encrypted")
        }
        try plaintext.close()

        let header = try Data(contentsOf: URL(fileURLWithPath: newPath)).prefix(16)
        #expect(header != Data("SQLite format 3\u{0}".utf8))
        var config = Configuration()
        config.prepareDatabase { db in try db.usePassphrase(Self.loadPassphrase()) }
        let encrypted = try DatabaseQueue(path: newPath, configuration: config)
        let (names, userVersion) = try encrypted.read { db in
            (try String.fetchAll(db, sql: "SELECT name FROM player"), try Int.fetchOne(db, sql: "PRAGMA user_version"))
        }
        #expect(names == ["Arthur"])
        #expect(userVersion == 0)
        // The migrator of the encrypted database knows what ran.
        #expect(try encrypted.read(migrator.hasCompletedMigrations))
    }
}
