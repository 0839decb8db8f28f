import Foundation
import PlayersProtocol
import SyncSchema
import SyncServer

/// The players of the HTTP API (`/v1/players`, `/v1/changes`) as rows of
/// the sync engine's `player` table (``PlayersSchema/player``), in
/// either of the engine's stores: Players is an app on the engine, and
/// its writes follow the engine's rules, written once above the stores
/// (``SyncChangePlan``). A player's version is its row's; its digest is
/// the table's (the same hash).
///
/// ```swift
/// let store = try EnginePlayersStore(EmbeddedSyncStore(try ServerSyncDatabase(pool, schema: PlayersSchema.schema)))
/// let page = try await store.snapshot(limit: 1_000, after: nil)
/// ```
public struct EnginePlayersStore: PlayersStore {
    public let engine: any SyncRowStore
    static let table = PlayersSchema.player
    /// The engine's reads of the players' table alone.
    static let players = SyncTableFilter([table.name])

    /// Serves the players of `engine`, whose declaration has Players'
    /// `player` table as `PlayersSchema` declares it (the server adds it
    /// to every declaration it serves).
    public init(_ engine: any SyncRowStore) {
        precondition(engine.schema.table(Self.table.name) == Self.table, "the engine's declaration lacks PlayersSchema.player")
        self.engine = engine
    }

    public var history: ServerHistory { engine.history }
    public var changes: StoreChangeNotifier { engine.changes }

    // MARK: - Reading

    public func snapshot(limit: Int, after: UUID?) async throws -> SnapshotPage {
        let read = try await engine.snapshot(after: after.map { SyncRowKey(table: Self.table.name, id: $0) }, limit: limit + 1,
                                             tables: Self.players)
        let players = try read.rows.prefix(limit).map(ServerPlayer.init(row:))
        return SnapshotPage(version: read.counter, players: players, isLast: read.rows.count <= limit, digest: Self.digest(of: read))
    }

    public func delta(since: Int64, limit: Int) async throws -> DeltaPage? {
        guard let read = try await engine.changes(after: since, limit: limit + 1, tables: Self.players) else { return nil }
        let changes = try read.rows.map { row -> (version: Int64, change: DeltaPage.Change) in
            switch row.state {
            case .live: (row.version, .player(try ServerPlayer(row: row)))
            case .deleted(let date): (row.version, .tombstone(ServerTombstone(uuid: row.key.id, version: row.version, deletedAt: date)))
            }
        }
        return DeltaPage(cutting: changes, limit: limit, since: since, serverVersion: read.counter, digest: Self.digest(of: read))
    }

    public func player(_ uuid: UUID) async throws -> ServerPlayer? {
        guard let row = try await engine.row(Self.key(uuid)), row.isLive else { return nil }
        return try ServerPlayer(row: row)
    }

    public func checkReachable() async throws {
        _ = try await engine.currentVersion()
    }

    // MARK: - Writing

    public func applyChanges(_ batch: PlayersChangeBatch) async throws -> PlayersChangeResults {
        try batch.validate()
        let changes = try batch.changes.map(Self.syncChange(_:))
        do {
            let results = try await engine.applyChanges(changes, at: Date())
            return PlayersChangeResults(results: try results.map(Self.result(_:)))
        } catch SyncChangeError.mutationIDReused(let mutationID, _) {
            throw MutationIDReusedError(mutationID: mutationID)
        }
    }

    public func purgeTombstones(olderThan retention: TimeInterval, now: Date) async throws {
        try await engine.purgeTombstones(olderThan: retention, now: now)
    }

    public func close() async throws {
        try await engine.close()
    }

    // MARK: - Players and rows

    static func key(_ uuid: UUID) -> SyncRowKey {
        SyncRowKey(table: table.name, id: uuid)
    }

    /// A player's row: its name (trimmed, as its column stores it) and
    /// score, checked by the declaration.
    static func row(_ uuid: UUID, name: String, score: Int) throws -> SyncRow {
        try table.row(id: uuid, values: ["name": .text(name), "score": .integer(Int64(score))])
    }

    /// The digest of the live players that a store read with its page.
    static func digest(of read: SyncStoredPage) -> PlayersDigest? {
        read.digests.first { $0.table == table.name }.map { PlayersDigest(players: $0.rows, checksum: $0.checksum) }
    }

    /// A change of Players' protocol as the engine's: a save is an upsert
    /// of the whole row (`player` is a table where the server wins).
    static func syncChange(_ change: PlayersChangeBatch.Change) throws -> SyncChange {
        switch change.kind {
        case .save:
            // PlayersChangeBatch.validate() checked both.
            SyncChange(mutationID: change.mutationID, operation: .upsert,
                       row: try row(change.uuid, name: change.name ?? "", score: change.score ?? -1), baseVersion: change.baseVersion)
        case .delete:
            try deletion(change.uuid, baseVersion: change.baseVersion, mutationID: change.mutationID)
        }
    }

    /// The delete of a player made on `baseVersion`.
    static func deletion(_ uuid: UUID, baseVersion: Int64?, mutationID: UUID = UUID()) throws -> SyncChange {
        SyncChange(mutationID: mutationID, operation: .delete, row: try table.row(id: uuid, values: [:], carrying: .changed),
                   baseVersion: baseVersion)
    }

    /// The engine's answer as Players' protocol gives it: a conflict with
    /// a live player carries the player, its version in it.
    static func result(_ result: SyncPushResult) throws -> PlayersChangeResults.Result {
        let status: PlayersChangeResults.Result.Status = result.status == .applied ? .applied : .conflict
        guard let row = result.serverRow else {
            return PlayersChangeResults.Result(mutationID: result.mutationID, status: status, version: result.version)
        }
        guard let version = result.version else { throw SyncChangeError.storedAnswerDamaged(result.mutationID) }
        return PlayersChangeResults.Result(mutationID: result.mutationID, status: status,
                                           player: try ServerPlayer(uuid: row.id, values: row.values, version: version).entry)
    }
}
