import CipherDB
import Foundation

/// Copies of a database (an app's, a server's) that are written to a temporary file
/// next to their destination, synced to disk, verified (opened with their
/// key, `integrity_check`, the same row counts), and only then renamed into
/// place: a destination is never left half-written (see
/// ``writeVerified(to:contents:_:)``).
///
/// A copy's key is a ``DatabaseKeySource``, or `.plaintext` (nil) for no
/// encryption, which only an explicit choice gives.
///
/// What is the same for every database is here; an app adds what knows its
/// schema (PlayersFiles: restore, encrypt, JSON export).
public enum DatabaseFileOperations {
    /// Reports the progress of a copy, from 0 to 1.
    public typealias Progress = @Sendable (Double) -> Void

    /// Opens a queue on a file with its key (none for `.plaintext`), runs
    /// `body`, and closes it. The file is created if it does not exist.
    /// An encrypted file whose pages are not SQLCipher's default size
    /// (1024 bytes) needs `pageSize`: SQLCipher cannot read it from the
    /// file.
    @discardableResult
    public static func withDatabase<T>(at url: URL, key: DatabaseKeySource?, pageSize: Int? = nil,
                                       _ body: (DatabaseQueue) throws -> T) throws -> T {
        var configuration = Configuration()
        if let key {
            key.configure(&configuration)
            if let pageSize {
                configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cipher_page_size = \(pageSize)") }
            }
        }
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try body(queue)
    }

    /// The database files of `database`, which a copy must never replace
    /// (none for an in-memory database).
    package static func databaseFiles(of database: any DatabaseReader) -> [URL] {
        database.path.hasPrefix("/") ? [URL(fileURLWithPath: database.path)] : []
    }
}
