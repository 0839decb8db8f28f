import CipherDB
import Foundation

// MARK: - Remote

extension AppDatabase {
    /// The base URL stored by ``setRemoteURL(_:)``, if any.
    public func remoteURL() throws -> URL? {
        try reader.read { db in
            try SyncState.fetch(db, name: SyncState.playersStream).remoteURL.flatMap { URL(string: $0) }
        }
    }

    /// Stores the base URL that a sync uses by default.
    public func setRemoteURL(_ url: URL) throws {
        try dbWriter.write { db in
            try SyncState.update(db, name: SyncState.playersStream) { $0.remoteURL = url.absoluteString }
        }
    }

    /// Forgets the stored base URL; returns the one it held, if any. The
    /// cursor stays: a later `setRemoteURL(_:)` of another server still
    /// meets it.
    @discardableResult
    public func removeRemoteURL() throws -> URL? {
        try dbWriter.write { db in
            let removed = try SyncState.fetch(db, name: SyncState.playersStream).remoteURL.flatMap { URL(string: $0) }
            try SyncState.update(db, name: SyncState.playersStream) { $0.remoteURL = nil }
            return removed
        }
    }
}
