import CipherDB
import Foundation

extension DatabaseFileOperations {
    /// Re-encrypts the database with a new key: an export to a temporary
    /// file, verified, then renamed over the database. An interruption
    /// leaves the database with the old key or with the new one, never
    /// neither. No other process may use the database meanwhile.
    public static func rekey(_ database: URL, from oldKey: DatabaseKeySource, to newKey: DatabaseKeySource) throws {
        try checkpointAndCheckUnused(database, key: oldKey)
        try writeVerified(to: database) { temporary in
            try writeExport(from: database, sourceKey: oldKey, into: temporary, key: newKey)
            try checkUnused(database)
        }
    }
}
