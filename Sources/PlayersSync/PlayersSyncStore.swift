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
/// The cursor and `ETag` are stored in the same transaction. Merging the
/// same payload again writes nothing.
///
/// ```swift
/// let client = try appDatabase.syncClient(baseURL: URL(string: "http://127.0.0.1:8080")!, transport: CurlTransport())
/// let report = try await client.sync()
/// ```
public struct PlayersSyncStore: SyncStore {
    let appDatabase: AppDatabase
    /// Runs inside the merge transaction, after the changes and before the
    /// commit: a hook for crash tests.
    let beforeCommit: (@Sendable (Database) throws -> Void)?

    public init(_ appDatabase: AppDatabase, beforeCommit: (@Sendable (Database) throws -> Void)? = nil) {
        self.appDatabase = appDatabase
        self.beforeCommit = beforeCommit
    }

    public func syncPosition() async throws -> SyncPosition {
        let state = try await appDatabase.reader.read { db in try SyncState.fetch(db, name: SyncState.playersStream) }
        return SyncPosition(endpoint: state.cursorEndpoint, cursor: state.cursor, etag: state.etag)
    }

    public func merge(_ fetch: SyncFetch<PlayersPayload>, from endpoint: URL, dryRun: Bool) async throws -> SyncCounts {
        let changes = try Self.changes(of: fetch)
        if dryRun {
            return try await appDatabase.reader.read { db in
                try PlayersMerge(db, isSnapshot: fetch.kind == .snapshot, dryRun: true).apply(changes)
            }
        }
        return try await appDatabase.dbWriter.write { db in
            let counts = try PlayersMerge(db, isSnapshot: fetch.kind == .snapshot, dryRun: false).apply(changes)
            try SyncState.update(db, name: SyncState.playersStream) { state in
                state.cursorEndpoint = endpoint.absoluteString
                state.cursor = fetch.cursor
                state.etag = fetch.etag
            }
            try beforeCommit?(db)
            return counts
        }
    }

    // MARK: - Consolidation

    /// What the fetch says of each player: its last state, in order of
    /// first appearance. A snapshot lists each player once; its catch-up
    /// delta and the pages of a delta may repeat one: the higher version
    /// wins.
    static func changes(of fetch: SyncFetch<PlayersPayload>) throws -> [PlayerChange] {
        var changes: [PlayerChange] = []
        var positions: [UUID: Int] = [:]
        func merge(_ change: PlayerChange) {
            if let position = positions[change.uuid] {
                if change.version > changes[position].version { changes[position] = change }
            } else {
                positions[change.uuid] = changes.count
                changes.append(change)
            }
        }
        for (pageIndex, page) in fetch.pages.enumerated() {
            for (index, player) in page.players.enumerated() {
                if fetch.kind == .snapshot, positions[player.uuid] != nil {
                    throw SyncPayloadError(page: pageIndex + 1, path: "$.players[\(index)].uuid",
                                           "\(player.uuid.uuidString) appears on an earlier page of the snapshot")
                }
                merge(.player(player))
            }
            for tombstone in page.tombstones { merge(.tombstone(tombstone)) }
        }
        for page in fetch.catchUp {
            for player in page.players { merge(.player(player)) }
            for tombstone in page.tombstones { merge(.tombstone(tombstone)) }
        }
        return changes
    }
}
