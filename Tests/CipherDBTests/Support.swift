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
}

/// A configuration that gives `passphrase` to every connection.
func encryptedConfiguration(_ passphrase: String = "correct horse battery staple") -> Configuration {
    var configuration = Configuration()
    configuration.prepareDatabase { (db) throws in
        try db.usePassphrase(passphrase)
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
