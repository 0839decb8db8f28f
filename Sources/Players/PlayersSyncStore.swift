import CipherDB
import CipherSync
import Foundation

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
    /// The name of the players' row in the `syncState` table.
    public static let streamName = "players"

    let appDatabase: AppDatabase
    /// Runs inside the merge transaction, after the changes and before the
    /// commit: a hook for crash tests.
    let beforeCommit: (@Sendable (Database) throws -> Void)?

    public init(_ appDatabase: AppDatabase, beforeCommit: (@Sendable (Database) throws -> Void)? = nil) {
        self.appDatabase = appDatabase
        self.beforeCommit = beforeCommit
    }

    public func syncState() async throws -> SyncState {
        try await appDatabase.reader.read { db in try SyncState.fetch(db, name: Self.streamName) }
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
            try SyncState.update(db, name: Self.streamName) { state in
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

/// The last state of a player in a fetch.
enum PlayerChange {
    case player(PlayersPayload.PlayerEntry)
    case tombstone(PlayersPayload.Tombstone)

    var uuid: UUID {
        switch self {
        case .player(let player): return player.uuid
        case .tombstone(let tombstone): return tombstone.uuid
        }
    }

    var version: Int64 {
        switch self {
        // Validated: a server's player always has a version.
        case .player(let player): return player.version ?? 0
        case .tombstone(let tombstone): return tombstone.version
        }
    }
}

/// One merge, inside a transaction: prepared statements reused for every
/// row (SQLite 3.15.2 has no UPSERT).
private struct PlayersMerge {
    struct LocalPlayer {
        var id: Int64
        var name: String
        var score: Int
        var version: Int64?
    }

    let db: Database
    let isSnapshot: Bool
    let dryRun: Bool

    init(_ db: Database, isSnapshot: Bool, dryRun: Bool) {
        self.db = db
        self.isSnapshot = isSnapshot
        self.dryRun = dryRun
    }

    func apply(_ changes: [PlayerChange]) throws -> SyncCounts {
        // Keyed by UUID, not its text: 16 bytes a key, no string to hash.
        var local: [UUID: LocalPlayer] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT id, uuid, name, score, version FROM player")
        while let row = try rows.next() {
            local[row[1]] = LocalPlayer(id: row[0], name: row[2], score: row[3], version: row[4])
        }

        var counts = SyncCounts()
        // What a snapshot lists matters only for the local players it does
        // not list: none in a first sync.
        let tracksListed = isSnapshot && !local.isEmpty
        var listed = Set<UUID>()
        if tracksListed { listed.reserveCapacity(changes.count) }
        for change in changes {
            let existing = local[change.uuid]
            switch change {
            case .player(let player):
                if tracksListed { listed.insert(player.uuid) }
                guard let existing else {
                    try write("INSERT INTO player (uuid, name, score, version) VALUES (?, ?, ?, ?)",
                              [player.uuid.uuidString, player.name, player.score, player.version])
                    counts.inserted += 1
                    continue
                }
                let version = player.version ?? 0
                guard existing.version.map({ version > $0 }) ?? true else {
                    counts.unchanged += 1
                    continue
                }
                try update(existing, to: player)
                counts.updated += 1
            case .tombstone(let tombstone):
                guard let existing, existing.version.map({ tombstone.version > $0 }) ?? true else { continue }
                try write("DELETE FROM player WHERE id = ?", [existing.id])
                counts.deleted += 1
            }
        }
        if tracksListed {
            // Synced players the snapshot no longer lists were deleted on
            // the server; players never synced stay.
            for (uuid, player) in local where player.version != nil && !listed.contains(uuid) {
                try write("DELETE FROM player WHERE id = ?", [player.id])
                counts.deleted += 1
            }
        }
        return counts
    }

    /// Writes the columns that changed, and the version.
    private func update(_ existing: LocalPlayer, to player: PlayersPayload.PlayerEntry) throws {
        switch (existing.name != player.name, existing.score != player.score) {
        case (true, true):
            try write("UPDATE player SET name = ?, score = ?, version = ? WHERE id = ?", [player.name, player.score, player.version, existing.id])
        case (true, false):
            try write("UPDATE player SET name = ?, version = ? WHERE id = ?", [player.name, player.version, existing.id])
        case (false, true):
            try write("UPDATE player SET score = ?, version = ? WHERE id = ?", [player.score, player.version, existing.id])
        case (false, false):
            try write("UPDATE player SET version = ? WHERE id = ?", [player.version, existing.id])
        }
    }

    private func write(_ sql: String, _ arguments: StatementArguments) throws {
        guard !dryRun else { return }
        try db.cachedStatement(sql: sql).execute(arguments: arguments)
    }
}

// MARK: - Remote and client

extension AppDatabase {
    /// The base URL stored by ``setRemoteURL(_:)``, if any.
    public func remoteURL() throws -> URL? {
        try reader.read { db in
            try SyncState.fetch(db, name: PlayersSyncStore.streamName).remoteURL.flatMap { URL(string: $0) }
        }
    }

    /// Stores the base URL that a sync uses by default.
    public func setRemoteURL(_ url: URL) throws {
        try dbWriter.write { db in
            try SyncState.update(db, name: PlayersSyncStore.streamName) { $0.remoteURL = url.absoluteString }
        }
    }

    /// The players endpoint of a server: its base URL followed by
    /// `/v1/players`.
    public static func playersEndpoint(baseURL: URL) -> URL {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + "/v1/players") ?? baseURL.appendingPathComponent("v1/players")
    }

    /// A client that syncs this database from the server at `baseURL`.
    public func syncClient(
        baseURL: URL,
        transport: any HTTPTransport,
        beforeCommit: (@Sendable (Database) throws -> Void)? = nil) -> SyncClient<PlayersSyncStore>
    {
        SyncClient(transport: transport, endpoint: Self.playersEndpoint(baseURL: baseURL),
                   store: PlayersSyncStore(self, beforeCommit: beforeCommit))
    }
}
