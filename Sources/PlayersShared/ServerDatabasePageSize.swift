import CipherDB
import Foundation

/// The size of the pages of the server's encrypted database file, which
/// SQLCipher 3 cannot read from the file (its header is encrypted): a
/// connection must be told it, after the key and before its first read.
///
/// A new file gets 4 KiB pages: SQLCipher 3.4.1's default of 1 KiB, less
/// the 48 bytes of each page's IV and MAC, holds no index entry longer
/// than 218 bytes in its page, and a stored row (about 350 bytes for a
/// note) spilled into an overflow page of its own, in the table and again
/// in the index of partitions: 3 KiB on disk per row, each decrypted on
/// its own. A file of an earlier release keeps its 1 KiB pages, found by
/// opening it with each size (``of(fileAt:configuration:)``).
///
/// ```swift
/// let pageSize = try ServerDatabasePageSize.of(fileAt: path, configuration: configuration)
/// pageSize.configure(&configuration)
/// ```
public enum ServerDatabasePageSize: Int, Sendable, CaseIterable {
    /// The size of the pages of a new file.
    case current = 4096
    /// SQLCipher 3's default, of the files of releases before 4 KiB pages.
    case earlier = 1024

    /// The size of the pages of the encrypted file at `path`, opened with
    /// the key of `configuration`: ``current`` for a missing or empty
    /// file, else the size with which its first page opens. Throws
    /// `SQLITE_NOTADB` when neither size does: a wrong key, or a file that
    /// is no encrypted database.
    public static func of(fileAt path: String, configuration: Configuration) throws -> ServerDatabasePageSize {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard let size = attributes?[.size] as? Int, size > 0 else { return .current }
        if try current.opens(fileAt: path, configuration: configuration) { return .current }
        if try earlier.opens(fileAt: path, configuration: configuration) { return .earlier }
        throw DatabaseError(resultCode: .SQLITE_NOTADB, message: "file is not a database")
    }

    /// Whether the file's first page opens with this size and the key of
    /// `configuration`, read-only.
    private func opens(fileAt path: String, configuration: Configuration) throws -> Bool {
        var probe = configuration
        probe.readonly = true
        configure(&probe)
        do {
            let queue = try DatabaseQueue(path: path, configuration: probe)
            defer { try? queue.close() }
            _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            return true
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            return false
        }
    }

    /// Tells every connection of `configuration` the size of the pages,
    /// after the key that an earlier ``Configuration/prepareDatabase(_:)``
    /// gives.
    public func configure(_ configuration: inout Configuration) {
        let pragma = "PRAGMA cipher_page_size = \(rawValue)"
        configuration.prepareDatabase { db in try db.execute(sql: pragma) }
    }
}
