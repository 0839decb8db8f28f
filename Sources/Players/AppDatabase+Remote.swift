import CipherDB
import Foundation

// MARK: - Remote

extension AppDatabase {
    /// The base URL stored by ``setRemoteURL(_:)``, if any.
    public func remoteURL() throws -> URL? {
        try reader.read(Self.remoteURL)
    }

    /// The stored base URL, read in the caller's transaction.
    public static func remoteURL(_ db: Database) throws -> URL? {
        try String.fetchOne(db, sql: "SELECT url FROM playersRemote WHERE id = 1").flatMap { URL(string: $0) }
    }

    /// Stores the base URL that a sync uses by default.
    public func setRemoteURL(_ url: URL) throws {
        try dbWriter.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO playersRemote (id, url) VALUES (1, ?)", arguments: [url.absoluteString])
        }
    }

    /// Forgets the stored base URL; returns the one it held, if any. The
    /// cursor stays: a later `setRemoteURL(_:)` of another server still
    /// meets it.
    @discardableResult
    public func removeRemoteURL() throws -> URL? {
        try dbWriter.write { db in
            let removed = try Self.remoteURL(db)
            try db.execute(sql: "DELETE FROM playersRemote")
            return removed
        }
    }

    /// Creates the table of the remote URL, in the migration
    /// `v7-sync-engine`: one row at most.
    static func createRemoteTable(_ db: Database) throws {
        try db.create(table: "playersRemote") { t in
            t.primaryKey("id", .integer).check { $0 == 1 }
            t.column("url", .text).notNull()
        }
    }
}
