import CipherDB
import Foundation
import Players

extension DatabaseFileOperations {
    /// Refuses a plaintext database to import (such as one made by a GRDB
    /// app) whose schema or players the players database would not accept;
    /// `SQLITE_NOTADB` when it is not a plaintext SQLite database. Run it
    /// before anything is created for the import.
    public static func checkPlaintextImport(_ source: URL) throws {
        try withDatabase(at: source, key: .plaintext) { queue in
            try queue.read { db in
                try checkForeignSchema(db, of: source)
                try AppDatabase.checkImportedPlayers(db, source: source.relativePath)
            }
        }
    }

    /// Encrypts a plaintext database into a new players database at
    /// `destination`, with `key`: a verified export (see
    /// ``export(from:sourceKey:to:destinationKey:replacing:)``), whose
    /// players table made elsewhere is recognised, then migrated. `source`
    /// is left untouched; nothing is left at `destination` if it fails.
    public static func encrypt(_ source: URL, into destination: URL, key: DatabaseKeySource) throws {
        do {
            try export(from: source, sourceKey: .plaintext, to: destination, destinationKey: key)
            try withDatabase(at: destination, key: key) { queue in
                try AppDatabase.adoptImportedSchema(queue)
            }
            try AppDatabase.open(at: destination, key: key).close()
        } catch {
            removeFiles(at: destination)
            throw error
        }
    }
}
