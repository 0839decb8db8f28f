import CipherDB
import Foundation
import PlayersProtocol

/// The stored state of one sync stream, a row of the `syncState` table:
/// the remote to sync from, and where the last sync left off.
///
/// ```swift
/// migrator.registerMigration("v3-sync-state") { db in
///     try SyncState.createTable(db)
/// }
/// ```
public struct SyncState: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "syncState"

    /// The name of the players' stream.
    public static let playersStream = "players"

    /// The stream: one per synced table (``playersStream``).
    public var name: String
    /// The base URL that a sync without `--url` uses.
    public var remoteURL: String?
    /// The endpoint that `cursor` and `etag` belong to: a sync from
    /// another endpoint takes a snapshot.
    public var cursorEndpoint: String?
    /// The server's position after the last merged sync.
    public var cursor: String?
    /// The `ETag` of the server's answer at `cursor`, for `If-None-Match`.
    public var etag: String?
    /// The server's digest at `cursor` (``PlayersDigest``), if it sent one:
    /// the number of players and the checksum. A sync that the server
    /// answers `304` compares the synced players with it.
    public var digestPlayers: Int?
    public var digestChecksum: String?

    public init(name: String, remoteURL: String? = nil, cursorEndpoint: String? = nil, cursor: String? = nil, etag: String? = nil,
                digest: PlayersDigest? = nil) {
        self.name = name
        self.remoteURL = remoteURL
        self.cursorEndpoint = cursorEndpoint
        self.cursor = cursor
        self.etag = etag
        self.digest = digest
    }

    /// The server's digest at `cursor`, if it sent one.
    public var digest: PlayersDigest? {
        get {
            guard let digestPlayers, let digestChecksum else { return nil }
            return PlayersDigest(players: digestPlayers, checksum: digestChecksum)
        }
        set {
            digestPlayers = newValue?.players
            digestChecksum = newValue?.checksum
        }
    }

    /// Creates the `syncState` table, in a migration.
    public static func createTable(_ db: Database) throws {
        try db.create(table: databaseTableName) { t in
            t.primaryKey("name", .text)
            t.column("remoteURL", .text)
            t.column("cursorEndpoint", .text)
            t.column("cursor", .text)
            t.column("etag", .text)
        }
    }

    /// Adds the server's digest to the `syncState` table, in a migration.
    public static func addDigestColumns(_ db: Database) throws {
        try db.alter(table: databaseTableName) { t in
            t.add(column: "digestPlayers", .integer)
            t.add(column: "digestChecksum", .text)
        }
    }

    /// The state of a stream, empty when it never synced.
    public static func fetch(_ db: Database, name: String) throws -> SyncState {
        try SyncState.fetchOne(db, key: name) ?? SyncState(name: name)
    }

    /// Changes the state of a stream, reading its row once and writing
    /// it only when it changed (so that a sync that changes nothing writes
    /// no page).
    ///
    /// ```swift
    /// try SyncState.update(db, name: "players") { $0.remoteURL = url.absoluteString }
    /// ```
    public static func update(_ db: Database, name: String, _ modify: (inout SyncState) -> Void) throws {
        let stored = try SyncState.fetchOne(db, key: name)
        var state = stored ?? SyncState(name: name)
        modify(&state)
        guard state != stored else { return }
        try state.save(db)
    }
}
