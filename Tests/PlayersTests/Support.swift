import CipherDB
import Foundation
import Players
import TestSupport
import Testing

/// Where a test database lives: every test runs on both.
enum Storage: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inMemory
    case encryptedFile

    var testDescription: String { rawValue }
}

/// An empty players database, and the folder that holds its file,
/// removed with the value.
struct TestDatabase {
    let appDatabase: AppDatabase
    let folder: TemporaryFolder?

    init(_ storage: Storage) throws {
        switch storage {
        case .inMemory:
            appDatabase = try AppDatabase.empty()
            folder = nil
        case .encryptedFile:
            let folder = try TemporaryFolder()
            self.folder = folder
            // A raw key: encrypted as with a passphrase, without its key
            // derivation, which AppDatabaseTests test.
            appDatabase = try AppDatabase.open(at: folder.url("players.db"), key: .rawKey { Data(repeating: 0x5A, count: 32) })
        }
    }
}
