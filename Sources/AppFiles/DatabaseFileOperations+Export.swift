import CipherDB
import Foundation

extension DatabaseFileOperations {
    /// A copy made with `sqlcipher_export`, which rewrites every page: the
    /// way to change the key, or to turn a plaintext database into an
    /// encrypted one. `user_version` and the migrations come along.
    ///
    /// See <https://www.zetetic.net/sqlcipher/sqlcipher-api/#sqlcipher_export>.
    public static func export(
        from source: URL,
        sourceKey: DatabaseKeySource?,
        to destination: URL,
        destinationKey: DatabaseKeySource?,
        replacing: Bool = false) throws
    {
        try checkDestination(destination, replacing: replacing, protecting: [source])
        try writeVerified(to: destination) { temporary in
            try writeExport(from: source, sourceKey: sourceKey, into: temporary, key: destinationKey)
        }
    }

    /// Exports every page of `source` into `temporary`, an empty file
    /// encrypted with `key`, and verifies it.
    package static func writeExport(from source: URL, sourceKey: DatabaseKeySource?, into temporary: URL, key: DatabaseKeySource?) throws {
        try writeVerifiedCopy(at: temporary, key: key) {
            // Read-write, because a read-only connection cannot open a WAL
            // database whose -shm file is missing; nothing is written.
            try withDatabase(at: source, key: sourceKey) { sourceQueue in
                try sourceQueue.inDatabase { db in
                    let counts = try tableCounts(db)
                    let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                    try db.attachDatabase(atPath: temporary.path, as: "export", key: key)
                    defer { try? db.detachDatabase(named: "export") }
                    _ = try Row.fetchAll(db, sql: "SELECT sqlcipher_export('export')")
                    try db.execute(sql: "PRAGMA export.user_version = \(userVersion)")
                    return counts
                }
            }
        }
    }
}
