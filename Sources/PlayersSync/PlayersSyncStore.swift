import CipherDB
import CipherSync
import Foundation
import Players
import PlayersProtocol

/// Merges the players of a sync into the players database, in one write
/// transaction (Docs/Sync.md):
///
/// - a player new to this database is inserted;
/// - a player whose incoming version is newer is updated, only in the
///   columns that changed;
/// - a player named by a newer tombstone is deleted, and so is, after a
///   snapshot, a player synced before that the snapshot no longer lists;
/// - a player created here and never synced (no version) is kept.
///
/// The pages wait in an encrypted staging database until the merge
/// (``PlayersStaging``), so that a sync's memory does not grow with its
/// players. The cursor and `ETag` are stored in the merge's transaction.
/// Merging the same payload again writes nothing.
///
/// ```swift
/// let client = try appDatabase.syncClient(baseURL: URL(string: "http://127.0.0.1:8080")!, transport: CurlTransport())
/// let report = try await client.sync()
/// ```
public struct PlayersSyncStore: SyncStore {
    let appDatabase: AppDatabase
    /// The folder where each sync makes the private folder of its staging
    /// database; nil: the system's temporary folder.
    let stagingDirectory: URL?
    /// Runs inside the merge transaction, after the changes and before the
    /// commit: a hook for crash tests.
    let beforeCommit: (@Sendable (Database) throws -> Void)?
    /// Follows each merge: the staged changes walked so far, and their
    /// total (``CipherSync/SyncMergeProgress``).
    let mergeProgress: SyncMergeProgress?

    public init(_ appDatabase: AppDatabase, stagingDirectory: URL? = nil, beforeCommit: (@Sendable (Database) throws -> Void)? = nil,
                mergeProgress: SyncMergeProgress? = nil) {
        self.appDatabase = appDatabase
        self.stagingDirectory = stagingDirectory
        self.beforeCommit = beforeCommit
        self.mergeProgress = mergeProgress
    }

    public func decodePage(_ data: Data) throws -> PlayersPayload {
        try PlayersPayload.decodePage(data)
    }

    public func syncPosition() async throws -> SyncPosition {
        let state = try await appDatabase.reader.read { db in try SyncState.fetch(db, name: SyncState.playersStream) }
        return SyncPosition(endpoint: state.cursorEndpoint, cursor: state.cursor, etag: state.etag)
    }

    public func checkDigest() async throws -> SyncDivergence? {
        try await appDatabase.reader.read { db in
            try SyncedPlayersCheck.divergence(db, from: try SyncState.fetch(db, name: SyncState.playersStream).digest)
        }
    }

    public func beginStaging() async throws -> PlayersStaging {
        try await PlayersStaging.begin(appDatabase, in: stagingDirectory ?? FileManager.default.temporaryDirectory,
                                       beforeCommit: beforeCommit, mergeProgress: mergeProgress)
    }
}
